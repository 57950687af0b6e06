/**
 * The Store contract for lists, search and counts: keyset pages in both directions and with
 * every filter, the text search (the same events on both engines for the same words), the
 * registrations counter and per-event counts, bulk insert and OAuth state pruning.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/store/dialects/dialect.js';
import { migrations } from '../../src/store/migrations.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { eventToRow, type EventRow } from '../../src/store/tables.js';
import { words } from '../../src/store/search-terms.js';
import type { EventQuery, Store, StoredEvent } from '../../src/store/store.js';
import { storedEvents } from '../helpers/stored-events.js';
import { sampleEvent, type ClosableStore } from './store-contract.js';

/** Every page of a query, following `after` from each page's last item. */
async function pages(store: Store, q: EventQuery): Promise<string[][]> {
  const out: string[][] = [];
  let after: EventQuery['after'];
  for (;;) {
    const p = await store.listEvents({ ...q, ...(after ? { after } : {}) });
    out.push(p.items.map((e) => e.videoId));
    const last = p.items.at(-1);
    if (!p.more || !last) return out;
    after = { startTime: last.startTime, videoId: last.videoId };
  }
}

const at = (day: number, hour = 9) =>
  `2026-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;

export function runListContract(name: string, make: () => Promise<ClosableStore>): void {
  describe(`Store contract (lists): ${name}`, () => {
    let store: ClosableStore;

    beforeAll(async () => {
      store = await make();
      await store.migrate();
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      for (const e of await storedEvents(store)) await store.deleteEvent(e.videoId);
    });

    it('pages events by start time then id, ascending and descending, each exactly once', async () => {
      const events: StoredEvent[] = [];
      for (let i = 0; i < 23; i += 1)
        events.push(
          sampleEvent(`p${String(i).padStart(2, '0')}`, at(1 + (i % 5)), {
            funnel: i % 2 ? 'odd' : 'even',
            status: i % 3 ? 'scheduled' : 'ended',
          }),
        );
      await store.insertEvents(events);
      const expected = [...events]
        .sort((a, b) => (a.startTime + a.videoId < b.startTime + b.videoId ? -1 : 1))
        .map((e) => e.videoId);
      const asc = await pages(store, { limit: 5 });
      expect(asc.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
      expect(asc.flat()).toEqual(expected);
      expect((await pages(store, { limit: 5, order: 'desc' })).flat()).toEqual([...expected].reverse());
      expect((await pages(store, { limit: 23 })).length).toBe(1);

      const odd = (await pages(store, { limit: 4, funnel: 'odd' })).flat();
      expect(odd).toEqual(expected.filter((id) => Number(id.slice(1)) % 2 === 1));
      const ended = (await pages(store, { limit: 2, status: 'ended', from: at(2), to: at(4) })).flat();
      expect(ended).toEqual(
        events
          .filter((e) => e.status === 'ended' && e.startTime >= at(2) && e.startTime <= at(4))
          .sort((a, b) => (a.startTime + a.videoId < b.startTime + b.videoId ? -1 : 1))
          .map((e) => e.videoId),
      );
    });

    it('continues after a cursor whose event is gone, and sees one inserted ahead of it', async () => {
      await store.insertEvents([1, 2, 3, 4].map((d) => sampleEvent(`k${d}`, at(d))));
      const first = await store.listEvents({ limit: 2 });
      expect(first.items.map((e) => e.videoId)).toEqual(['k1', 'k2']);
      await store.deleteEvent('k2');
      await store.insertEvent(sampleEvent('k2b', at(2, 12)));
      const next = await store.listEvents({ limit: 10, after: { startTime: at(2), videoId: 'k2' } });
      expect(next).toEqual({
        items: [expect.objectContaining({ videoId: 'k2b' }), expect.anything(), expect.anything()],
        more: false,
      });
      expect(next.items.map((e) => e.videoId)).toEqual(['k2b', 'k3', 'k4']);
    });

    it('searches words as prefixes of topic, agenda and funnel words, newest first, within the cap', async () => {
      await store.insertEvents([
        sampleEvent('s1', at(1), { topic: 'Fleet onboarding call', createdAt: '2026-01-01T00:00:01.000Z' }),
        sampleEvent('s2', at(2), {
          topic: 'Quarterly review',
          agenda: 'Fleet insurance and Öl changes',
          createdAt: '2026-01-01T00:00:02.000Z',
        }),
        sampleEvent('s3', at(3), {
          topic: 'Démo day',
          funnel: 'fleet-spring',
          createdAt: '2026-01-01T00:00:03.000Z',
        }),
        sampleEvent('s4', at(4), { topic: 'Unrelated', createdAt: '2026-01-01T00:00:04.000Z' }),
      ]);
      const ids = async (q: string, cap = 50) =>
        (await store.searchEvents(words(q), cap)).map((e) => e.videoId);
      expect(await ids('fleet')).toEqual(['s3', 's2', 's1']);
      expect(await ids('FLE')).toEqual(['s3', 's2', 's1']);
      expect(await ids('fleet on')).toEqual(['s1']);
      expect(await ids('demo')).toEqual(['s3']);
      expect(await ids('ol')).toEqual(['s2']);
      expect(await ids('spring')).toEqual(['s3']);
      expect(await ids('leet')).toEqual([]);
      expect(await ids('fleet', 2)).toEqual(['s3', 's2']);
      expect(await ids('')).toEqual([]);
      expect(await ids('"fleet* OR x')).toEqual([]);
      // Changes reach the index with the row.
      await store.updateEvent('s4', { topic: 'Fleet relaunch' });
      expect(await ids('relaunch')).toEqual(['s4']);
      await store.deleteEvent('s1');
      expect(await ids('onboarding')).toEqual([]);
      expect((await store.searchEvents(words('fleet'), 10)).find((e) => e.videoId === 's4')).toEqual(
        await store.getEvent('s4'),
      );
    });

    it('counts registrations with a kept counter, and per event', async () => {
      const base = await store.countRegistrations();
      await store.insertEvents([sampleEvent('c1', at(1)), sampleEvent('c2', at(2))]);
      const reg = (id: string, videoId: string, email: string, createdAt = '2026-01-02T00:00:00.000Z') =>
        store.addRegistration({
          id,
          videoId,
          email,
          firstName: 'A',
          lastName: 'B',
          registrantId: `r-${id}`,
          joinUrl: null,
          createdAt,
        });
      await reg('c1-a', 'c1', 'a@example.com');
      await reg('c1-b', 'c1', 'b@example.com', '2026-01-01T00:00:00.000Z');
      await reg('c1-c', 'c1', 'c@example.com', '2026-01-02T00:00:00.000Z');
      await reg('c1-a2', 'c1', 'a@example.com');
      await reg('c2-a', 'c2', 'a@example.com');
      expect(await store.countRegistrations()).toBe(base + 4);
      expect(await store.countRegistrations('c1')).toBe(3);
      expect(await store.countRegistrations('none')).toBe(0);

      const first = await store.listRegistrations('c1', { limit: 2 });
      expect(first.items.map((r) => r.id)).toEqual(['c1-b', 'c1-a']);
      expect(first.more).toBe(true);
      const last = first.items.at(-1);
      const second = await store.listRegistrations('c1', {
        limit: 2,
        ...(last ? { after: { createdAt: last.createdAt, id: last.id } } : {}),
      });
      expect(second).toEqual({ items: [expect.objectContaining({ id: 'c1-c' })], more: false });

      await store.deleteEvent('c1');
      expect(await store.countRegistrations()).toBe(base + 1);
      await store.deleteEvent('c2');
      expect(await store.countRegistrations()).toBe(base);
    });

    it('prunes expired OAuth states in batches, never live ones', async () => {
      const now = Date.now();
      for (let i = 0; i < 5; i += 1)
        await store.putOAuthState({
          stateHash: `old-${i}`,
          verifier: 'v',
          browserHash: 'b',
          expiresAt: now - 1000,
        });
      await store.putOAuthState({
        stateHash: 'live',
        verifier: 'v',
        browserHash: 'b',
        expiresAt: now + 60_000,
      });
      // put() already took the expired ones: put more behind its back by expiring in the past of `now + 2s`.
      for (let i = 0; i < 5; i += 1)
        await store.putOAuthState({
          stateHash: `soon-${i}`,
          verifier: 'v',
          browserHash: 'b',
          expiresAt: now + 1000,
        });
      expect(await store.pruneOAuthStates(now + 2000, 3)).toBe(3);
      expect(await store.pruneOAuthStates(now + 2000, 3)).toBe(2);
      expect(await store.pruneOAuthStates(now + 2000, 3)).toBe(0);
      expect(await store.takeOAuthState('live', now)).toBeDefined();
    });
  });
}

/** Events stored before the search migration get their terms, and their registrations a count. */
export function runBackfillContract(name: string, dialect: () => Dialect): void {
  it(`${name}: migrating a store from before search and counters indexes its events and counts its registrations`, async () => {
    const d = dialect();
    const all = migrations(d.ddl);
    await d.migrate(Object.fromEntries(Object.entries(all).filter(([n]) => n < '008')));
    const old = d.db as unknown as Kysely<{
      stored_events: Record<string, unknown>;
      registrations: Record<string, unknown>;
    }>;
    for (let i = 0; i < 1203; i += 1) {
      const e = sampleEvent(`old-${i}`, at(1 + (i % 28)), {
        topic: i % 100 === 0 ? 'Fleet café' : `Call ${i}`,
      });
      // The row as it was before search: every column but the terms.
      const row: Partial<EventRow> = eventToRow(e, (b) => d.bool(b));
      delete row.search_terms;
      await old.insertInto('stored_events').values(row).execute();
    }
    for (const id of ['old-1', 'old-2'])
      await old
        .insertInto('registrations')
        .values({
          id: `r-${id}`,
          video_id: id,
          email: 'a@example.com',
          first_name: 'A',
          last_name: 'B',
          registrant_id: 'x',
          join_url: null,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
    const store = new SqlStore(d);
    try {
      await store.migrate();
      const found = await store.searchEvents(words('cafe'), 100);
      expect(found.map((e) => e.videoId).sort()).toEqual(
        Array.from({ length: 13 }, (_, k) => `old-${k * 100}`).sort(),
      );
      expect(await store.countRegistrations()).toBe(2);
    } finally {
      await store.close();
    }
  });
}
