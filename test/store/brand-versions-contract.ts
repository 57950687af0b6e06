/**
 * The brand-versions part of the Store contract, for both adapters: publishing writes a version
 * and its announcement in one transaction and nothing when the content hash equals the latest
 * one's; versions read back whole and page newest first; and two stores on the same storage
 * publishing the same new content at once write one version and one announcement. `make`
 * returns two stores on the same fresh storage, not yet migrated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandVersionRecord, Store } from '../../src/store/store.js';
import type { OutboxMessage } from '../../src/store/webhooks.js';

type Closable = Store & { close(): Promise<void> };

let n = 0;
/** The record that follows `latest` with content `hash` (versions count up in the patch field). */
function after(latest: BrandVersionRecord | undefined, hash: string): BrandVersionRecord {
  const seq = (latest?.seq ?? 0) + 1;
  return {
    version: `1.0.${seq - 1}`,
    seq,
    previous: latest?.version ?? null,
    publishedAt: new Date(Date.UTC(2026, 2, 1, 12, 0, seq)).toISOString(),
    contentHash: hash,
    bump: latest ? 'patch' : 'initial',
    added: 0,
    removed: 0,
    changed: latest ? 1 : 0,
    changes: JSON.stringify({ changed: [{ path: 'colors.x', from: 'a', to: hash }] }),
    tokens: JSON.stringify({ colors: { x: { $type: 'color', $value: hash } } }),
  };
}

function announce(v: BrandVersionRecord): OutboxMessage[] {
  n += 1;
  const createdAt = v.publishedAt;
  return [
    {
      id: `msg_bv_${n}`,
      type: 'brand.updated',
      payload: JSON.stringify({ type: 'brand.updated', data: { version: v.version } }),
      createdAt,
    },
  ];
}

const publish = (s: Store, hash: string) =>
  s.publishBrandVersion(hash, (latest) => {
    const record = after(latest, hash);
    return { record, outbox: announce(record) };
  });

export function runBrandVersionsContract(
  name: string,
  make: () => Promise<{ a: Closable; b: Closable }>,
): void {
  describe(`Store contract (brand versions): ${name}`, () => {
    let a: Closable;
    let b: Closable;
    const claimAll = (s: Store) =>
      s.webhooks.claimDeliveries({ now: Date.now() + 3_600_000, leaseMs: 60_000, limit: 100 });

    beforeAll(async () => {
      ({ a, b } = await make());
      await a.migrate();
      await b.migrate();
      await a.webhooks.putSubscription({
        id: 'sub_brand',
        url: 'https://hooks.example.com/brand',
        events: ['brand.updated'],
        secret: 'sealed:x',
        source: 'api',
        createdAt: '2026-03-01T00:00:00.000Z',
      });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('has no version before the first publish', async () => {
      expect(await a.latestBrandVersion()).toBeUndefined();
      expect(await a.listBrandVersions({ limit: 10 })).toEqual({ items: [], more: false });
    });

    it('publishes the first version with its announcement, and nothing for the same content again', async () => {
      const first = await publish(a, 'h1');
      expect(first.published).toBe(true);
      expect(first.latest).toMatchObject({ version: '1.0.0', seq: 1, previous: null, bump: 'initial' });
      const again = await publish(b, 'h1');
      expect(again).toEqual({ published: false, latest: first.latest });
      expect(await a.getBrandVersion('1.0.0')).toEqual(first.latest);
      expect(await a.getBrandVersion('9.9.9')).toBeUndefined();
      const claimed = await claimAll(a);
      expect(claimed.map((d) => d.message.type)).toEqual(['brand.updated']);
    });

    it('publishes changed content on top of the latest, and a revert to earlier content as a new version', async () => {
      expect((await publish(a, 'h2')).latest).toMatchObject({ version: '1.0.1', seq: 2, previous: '1.0.0' });
      // Back to the first content: a new version, not the old one.
      expect((await publish(b, 'h1')).latest).toMatchObject({ version: '1.0.2', seq: 3, previous: '1.0.1' });
      expect((await a.latestBrandVersion())?.version).toBe('1.0.2');
      const stored = await b.getBrandVersion('1.0.1');
      expect(JSON.parse(stored?.tokens ?? '{}')).toEqual({ colors: { x: { $type: 'color', $value: 'h2' } } });
    });

    it('pages versions newest first with a keyset', async () => {
      for (const h of ['h3', 'h4', 'h5']) await publish(a, h);
      const seen: string[] = [];
      let after: number | undefined;
      for (;;) {
        const p = await b.listBrandVersions({ limit: 2, ...(after !== undefined ? { after } : {}) });
        seen.push(...p.items.map((v) => v.version));
        expect(p.items.every((v) => !('tokens' in v))).toBe(true);
        const last = p.items.at(-1);
        if (!p.more || !last) break;
        after = last.seq;
      }
      expect(seen).toEqual(['1.0.5', '1.0.4', '1.0.3', '1.0.2', '1.0.1', '1.0.0']);
    });

    it('writes one version and one announcement when two stores publish the same change at once', async () => {
      await claimAll(a);
      const results = await Promise.all([publish(a, 'race'), publish(b, 'race')]);
      expect(results.map((r) => r.published).sort()).toEqual([false, true]);
      expect(results[0]?.latest).toEqual(results[1]?.latest);
      expect(results[0]?.latest.version).toBe('1.0.6');
      const page = await a.listBrandVersions({ limit: 100 });
      expect(page.items.filter((v) => v.contentHash === 'race')).toHaveLength(1);
      const claimed = await claimAll(b);
      expect(claimed.map((d) => d.message.type)).toEqual(['brand.updated']);
    });

    it('writes nothing, announcement included, when building the version fails', async () => {
      await expect(
        a.publishBrandVersion('boom', () => {
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect((await a.latestBrandVersion())?.version).toBe('1.0.6');
    });
  });
}
