/**
 * The outbox part of the Store contract, for both adapters: subscriptions, messages written in
 * the same transaction as the change they announce (and not at all when the change fails or
 * does not happen), leased claims that hand each delivery to one of two stores sharing the
 * same storage, and pruning: finished deliveries in batches, never pending ones, a message only
 * once no delivery is left for it; with tracing on, each message keeps the writer's
 * `traceparent` for its deliveries (none when it is off). `make` returns two stores on the same fresh storage, not yet
 * migrated.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { ClaimedDelivery, OutboxMessage, WebhookSubscription } from '../../src/store/webhooks.js';
import { setTracing, type Tracing } from '../../src/tracing/current.js';
import { sampleEvent, sampleLink } from './store-contract.js';

type Closable = Store & { close(): Promise<void> };

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
let seq = 0;

function message(type: string, atMs = T0): OutboxMessage {
  seq += 1;
  const createdAt = new Date(atMs).toISOString();
  return { id: `msg_${seq}`, type, payload: JSON.stringify({ type, n: seq }), createdAt };
}

function subscription(id: string, events: string[]): WebhookSubscription {
  return {
    id,
    url: `https://hooks.example.com/${id}`,
    events,
    secret: `sealed:${id}`,
    source: 'api',
    createdAt: '2026-03-01T00:00:00.000Z',
  };
}

export function runOutboxContract(name: string, make: () => Promise<{ a: Closable; b: Closable }>): void {
  describe(`Store contract (outbox): ${name}`, () => {
    let a: Closable;
    let b: Closable;
    const claimAll = (s: Store, now = T0) => s.webhooks.claimDeliveries({ now, leaseMs: 60_000, limit: 100 });
    /** What claimed deliveries carry, `subscription message payload`, sorted. */
    const seen = (ds: ClaimedDelivery[]) =>
      ds.map((d) => `${d.subscription.id} ${d.message.id} ${d.message.payload}`).sort();

    beforeAll(async () => {
      ({ a, b } = await make());
      await a.migrate();
      await b.migrate();
    });
    afterAll(async () => {
      await a.close();
      await b.close();
    });
    beforeEach(async () => {
      for (const s of await a.webhooks.listSubscriptions()) await a.webhooks.deleteSubscription(s.id);
      await a.webhooks.pruneDeliveries(Number.MAX_SAFE_INTEGER, 10_000);
      for (const e of (await a.listEvents({ limit: 1000 })).items) await a.deleteEvent(e.videoId);
      await a.deleteLink();
    });

    it('keeps subscriptions: put, get, list, replace by id, delete', async () => {
      await a.webhooks.putSubscription(subscription('sub_1', ['*']));
      await a.webhooks.putSubscription({ ...subscription('sub_2', ['event.created']), source: 'env' });
      expect(await b.webhooks.getSubscription('sub_1')).toEqual(subscription('sub_1', ['*']));
      expect((await b.webhooks.listSubscriptions()).map((s) => [s.id, s.source])).toEqual([
        ['sub_1', 'api'],
        ['sub_2', 'env'],
      ]);
      await a.webhooks.putSubscription({
        ...subscription('sub_2', ['link.changed']),
        url: 'https://other.example.com/',
        secret: 'sealed:new',
        source: 'env',
        createdAt: '2027-01-01T00:00:00.000Z',
      });
      expect(await a.webhooks.getSubscription('sub_2')).toMatchObject({
        url: 'https://other.example.com/',
        events: ['link.changed'],
        secret: 'sealed:new',
        createdAt: '2026-03-01T00:00:00.000Z',
      });
      expect(await a.webhooks.deleteSubscription('sub_2')).toBe(true);
      expect(await a.webhooks.deleteSubscription('sub_2')).toBe(false);
      expect(await a.webhooks.getSubscription('sub_2')).toBeUndefined();
    });

    it("keeps the writer's traceparent with its messages when tracing is on, and nothing when it is off", async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      const tp = (span: string) => `00-${'ab'.repeat(16)}-${span}-01`;
      let current = tp('1'.repeat(16));
      // Only the part of Tracing the store reads: the current span's traceparent.
      setTracing({ traceparent: () => current } as unknown as Tracing);
      try {
        const changed = message('event.created');
        await a.insertEvent(sampleEvent('511', '2026-04-01T10:00:00.000Z'), [changed]);
        current = tp('2'.repeat(16));
        const enqueued = message('recording.completed');
        await a.webhooks.enqueue([enqueued]);
        const claimed = await claimAll(b);
        expect(claimed.map((d) => [d.message.id, d.traceparent]).sort()).toEqual(
          [
            [changed.id, tp('1'.repeat(16))],
            [enqueued.id, tp('2'.repeat(16))],
          ].sort(),
        );
      } finally {
        setTracing(undefined);
      }
      await a.webhooks.enqueue([message('recording.completed')]);
      const [untraced] = await claimAll(b);
      expect(untraced?.message.type).toBe('recording.completed');
      expect(untraced && 'traceparent' in untraced).toBe(false);
    });

    it('fans a change out to the subscriptions that want its type, in the same write', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.putSubscription(subscription('sub_reg', ['registration.created']));
      const m = message('event.created');
      await a.insertEvent(sampleEvent('501', '2026-04-01T10:00:00.000Z'), [m]);
      const claimed = await claimAll(b);
      expect(claimed.map((d) => [d.subscription.id, d.message])).toEqual([['sub_all', m]]);
      expect(claimed[0]).toMatchObject({
        attempts: 0,
        createdMs: T0,
        subscription: { url: 'https://hooks.example.com/sub_all', secret: 'sealed:sub_all' },
      });
      expect(await a.webhooks.enqueue([message('recording.completed')])).toBe(1);
      // Nobody wants this type any more: nothing is stored.
      await a.webhooks.deleteSubscription('sub_all');
      expect(await a.webhooks.enqueue([message('recording.completed')])).toBe(0);
      expect(await claimAll(b)).toEqual([]);
    });

    it('writes no message when the change fails, and none when it does not happen', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.insertEvent(sampleEvent('502', '2026-04-01T10:00:00.000Z'));
      await expect(
        a.insertEvent(sampleEvent('502', '2026-04-02T10:00:00.000Z'), [message('event.created')]),
      ).rejects.toThrow();
      const seen: string[] = [];
      const emit = (what: string) => () => {
        seen.push(what);
        return [message(what)];
      };
      expect(await a.updateEvent('404', { topic: 'x' }, emit('update-missing'))).toBeUndefined();
      expect(await a.deleteEvent('404', emit('delete-missing'))).toBe(false);
      await a.deleteLink(emit('unlink-missing'));
      expect(seen).toEqual([]);
      expect(await claimAll(a)).toEqual([]);
      expect(await a.webhooks.deliveryCounts()).toEqual({ pending: 0, delivered: 0, failed: 0 });
    });

    it('hands emitters what the change did: before and after, the deleted row, the new registration', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.insertEvent(sampleEvent('503', '2026-04-01T10:00:00.000Z'));
      const updated = await a.updateEvent('503', { status: 'started' }, ({ prev, next }) => [
        message(`${prev.status}->${next.status}`),
      ]);
      expect(updated?.status).toBe('started');
      const reg = {
        id: '503:ada@example.com',
        videoId: '503',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'L',
        registrantId: 'r1',
        joinUrl: null,
        createdAt: '2026-03-01T00:00:00.000Z',
      };
      await a.addRegistration(reg, (r) => [message(`registered:${r.email}`)]);
      // The same person again: no new registration, so nothing to announce.
      await a.addRegistration({ ...reg, id: 'other' }, (r) => [message(`again:${r.email}`)]);
      await a.deleteEvent('503', (gone) => [message(`deleted:${gone.status}`)]);
      await a.saveLink(sampleLink(), [message('linked')]);
      await a.withLinkLock((link) =>
        Promise.resolve({
          next: { ...(link ?? sampleLink()), status: 'needs_relink' as const },
          result: undefined,
          outbox: [message('needs_relink')],
        }),
      );
      await a.deleteLink((gone) => [message(`unlinked:${gone.status}`)]);
      expect(
        await a.recordWebhook('wh-1', 'recording.completed', '2026-03-01T00:00:00.000Z', {
          outbox: [message('rec')],
        }),
      ).toBe(true);
      expect(
        await a.recordWebhook('wh-1', 'recording.completed', '2026-03-01T00:00:00.000Z', {
          outbox: [message('rec-again')],
        }),
      ).toBe(false);
      const types = (await claimAll(b)).map((d) => d.message.type);
      expect(types.sort()).toEqual(
        [
          'scheduled->started',
          'registered:ada@example.com',
          'deleted:started',
          'linked',
          'needs_relink',
          'unlinked:needs_relink',
          'rec',
        ].sort(),
      );
    });

    it('leases a delivery to one claimer, gives it back when the lease runs out, and lets only the holder finish it', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.enqueue([message('event.created')]);
      const [first] = await a.webhooks.claimDeliveries({ now: T0, leaseMs: 1000, limit: 10 });
      expect(first).toBeDefined();
      if (!first) return;
      expect(await b.webhooks.claimDeliveries({ now: T0 + 999, leaseMs: 1000, limit: 10 })).toEqual([]);
      const [again] = await b.webhooks.claimDeliveries({ now: T0 + 1000, leaseMs: 1000, limit: 10 });
      expect(again?.id).toBe(first.id);
      expect(again?.lockToken).not.toBe(first.lockToken);
      const outcome = { status: 'delivered' as const, at: T0 + 1500, httpStatus: 204, error: null };
      expect(await a.webhooks.finishDelivery(first.id, first.lockToken, outcome)).toBe(false);
      expect(await b.webhooks.finishDelivery(first.id, again?.lockToken ?? '', outcome)).toBe(true);
      expect(await claimAll(a, T0 + 100_000)).toEqual([]);
      const [log] = await a.webhooks.recentDeliveries({ limit: 5 });
      expect(log).toMatchObject({
        id: first.id,
        status: 'delivered',
        attempts: 1,
        lastStatus: 204,
        deliveredAt: new Date(T0 + 1500).toISOString(),
        type: 'event.created',
        subscriptionId: 'sub_all',
      });
    });

    it('frees the leases of pending deliveries for a restored store, leaving finished ones as they are', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.enqueue([message('event.created'), message('event.updated')]);
      const leased = await claimAll(a);
      expect(leased).toHaveLength(2);
      const [done, held] = leased;
      if (!done || !held) return;
      const outcome = { status: 'delivered' as const, at: T0 + 10, httpStatus: 204, error: null };
      expect(await a.webhooks.finishDelivery(done.id, done.lockToken, outcome)).toBe(true);
      // The held one's lease has a minute to run: nobody else may take it yet.
      expect(await claimAll(b, T0 + 1)).toEqual([]);
      expect(await b.webhooks.releaseLeases()).toBe(1);
      const [again] = await claimAll(b, T0 + 1);
      expect(again?.id).toBe(held.id);
      // The old holder can no longer finish it; the new one can.
      expect(await a.webhooks.finishDelivery(held.id, held.lockToken, outcome)).toBe(false);
      expect(await b.webhooks.finishDelivery(held.id, again?.lockToken ?? '', outcome)).toBe(true);
      expect(await b.webhooks.releaseLeases()).toBe(0);
    });

    it('schedules a retry for later, counts attempts, and records a final failure', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.enqueue([message('event.updated')]);
      const [d] = await claimAll(a);
      if (!d) throw new Error('nothing claimed');
      await a.webhooks.finishDelivery(d.id, d.lockToken, {
        status: 'pending',
        at: T0 + 10,
        httpStatus: 500,
        error: null,
        nextAttemptAt: T0 + 5000,
      });
      expect(await claimAll(b, T0 + 4999)).toEqual([]);
      const [retry] = await claimAll(b, T0 + 5000);
      expect(retry?.attempts).toBe(1);
      if (!retry) return;
      await b.webhooks.finishDelivery(retry.id, retry.lockToken, {
        status: 'failed',
        at: T0 + 5010,
        httpStatus: null,
        error: 'ECONNREFUSED',
      });
      expect(await a.webhooks.deliveryCounts()).toEqual({ pending: 0, delivered: 0, failed: 1 });
      expect(await a.webhooks.deliveryCounts('sub_other')).toEqual({ pending: 0, delivered: 0, failed: 0 });
      expect((await a.webhooks.recentDeliveries({ limit: 1, subscriptionId: 'sub_all' }))[0]).toMatchObject({
        status: 'failed',
        attempts: 2,
        lastError: 'ECONNREFUSED',
        lastStatus: null,
      });
      expect(await a.webhooks.pruneDeliveries(T0 + 5010, 10)).toBe(0);
      expect(await a.webhooks.pruneDeliveries(T0 + 5011, 10)).toBe(1);
      expect(await a.webhooks.recentDeliveries({ limit: 5 })).toEqual([]);
    });

    it('prunes finished deliveries at most `limit` at a time, never pending ones, and a message once none is left', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.putSubscription(subscription('sub_updates', ['event.updated']));
      const shared = message('event.updated'); // delivered to sub_all, pending for sub_updates
      const failed = message('event.created');
      const delivered = message('event.created');
      await a.webhooks.enqueue([shared, failed, delivered, message('event.created')]);
      for (const d of await claimAll(a)) {
        if (d.subscription.id !== 'sub_all') continue;
        const status = d.message.id === failed.id ? 'failed' : 'delivered';
        await a.webhooks.finishDelivery(d.id, d.lockToken, {
          status,
          at: T0 + 10,
          httpStatus: 200,
          error: null,
        });
      }
      expect(await b.webhooks.pruneDeliveries(T0 + 10, 10)).toBe(0);
      expect(await b.webhooks.pruneDeliveries(T0 + 11, 3)).toBe(3);
      expect(await a.webhooks.pruneDeliveries(T0 + 11, 3)).toBe(1);
      expect(await a.webhooks.pruneDeliveries(Number.MAX_SAFE_INTEGER, 3)).toBe(0);
      expect(await a.webhooks.deliveryCounts()).toEqual({ pending: 1, delivered: 0, failed: 0 });
      // The message with a delivery left is whole (a claim reads it); a message written again
      // under a pruned message's id is stored anew, so the pruned one had gone.
      await a.webhooks.enqueue([{ ...delivered, payload: '{"again":true}' }]);
      expect(seen(await claimAll(b, T0 + 120_000))).toEqual(
        [`sub_all ${delivered.id} {"again":true}`, `sub_updates ${shared.id} ${shared.payload}`].sort(),
      );
    });

    it('deleting a subscription forgets the messages only it had deliveries of', async () => {
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.webhooks.putSubscription(subscription('sub_updates', ['event.updated']));
      const shared = message('event.updated');
      const only = message('event.created');
      await a.webhooks.enqueue([shared, only]);
      expect(await a.webhooks.deleteSubscription('sub_all')).toBe(true);
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      // Written again: the message only sub_all had is stored anew, the shared one was kept.
      await a.webhooks.enqueue([
        { ...shared, payload: '{"again":true}' },
        { ...only, payload: '{"again":true}' },
      ]);
      expect(seen(await claimAll(b))).toEqual(
        [
          `sub_all ${shared.id} ${shared.payload}`,
          `sub_all ${only.id} {"again":true}`,
          `sub_updates ${shared.id} ${shared.payload}`,
        ].sort(),
      );
    });

    it('two stores claiming at once split the deliveries: each one exactly once', async () => {
      await a.webhooks.putSubscription(subscription('sub_a', ['*']));
      await a.webhooks.putSubscription(subscription('sub_b', ['event.created']));
      await a.webhooks.enqueue(Array.from({ length: 15 }, () => message('event.created')));
      const got: string[] = [];
      const drain = async (s: Store) => {
        for (;;) {
          const batch = await s.webhooks.claimDeliveries({ now: T0, leaseMs: 60_000, limit: 3 });
          if (batch.length === 0) return;
          got.push(...batch.map((d) => `${d.message.id}/${d.subscription.id}`));
        }
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(got).toHaveLength(30);
      expect(new Set(got).size).toBe(30);
    });

    it('tells local listeners after a commit that created deliveries, not otherwise', async () => {
      let calls = 0;
      a.webhooks.onEnqueued(() => (calls += 1));
      await a.insertEvent(sampleEvent('504', '2026-04-01T10:00:00.000Z'), [message('event.created')]);
      expect(calls).toBe(0);
      await a.webhooks.putSubscription(subscription('sub_all', ['*']));
      await a.updateEvent('504', { topic: 'y' }, () => [message('event.updated')]);
      expect(calls).toBe(1);
    });

    it('lists subscription secrets among the sealed values and rewrites them by compare-and-swap', async () => {
      await a.webhooks.putSubscription(subscription('sub_s', ['*']));
      const values = (await a.sealedValues()).filter((v) => v.table === 'webhook_subscriptions');
      expect(values).toEqual([
        { table: 'webhook_subscriptions', id: 'sub_s', column: 'secret', value: 'sealed:sub_s' },
      ]);
      const [was] = values;
      if (!was) throw new Error('no sealed secret');
      expect(await a.rewriteSealed(was, 'resealed:sub_s')).toBe(true);
      expect((await b.webhooks.getSubscription('sub_s'))?.secret).toBe('resealed:sub_s');
      // The value read is gone now: a second write from the same read changes nothing.
      expect(await a.rewriteSealed(was, 'resealed-twice:sub_s')).toBe(false);
      expect((await b.webhooks.getSubscription('sub_s'))?.secret).toBe('resealed:sub_s');
      await expect(a.rewriteSealed({ ...was, column: 'url' }, 'x')).rejects.toThrow();
    });
  });
}
