/**
 * The Store contract: one suite every adapter must pass, so SQLite and PostgreSQL behave the
 * same to the gateway. `make` returns a store on fresh, empty storage; the suite migrates it,
 * shares it across its tests (each test cleans what it relies on) and closes it at the end.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  EventFilter,
  LinkRecord,
  OAuthStateRecord,
  Registration,
  Store,
  StoredEvent,
} from '../../src/store/store.js';
import { storedEvents } from '../helpers/stored-events.js';

export type ClosableStore = Store & { close(): Promise<void> };

export function sampleLink(over: Partial<LinkRecord> = {}): LinkRecord {
  return {
    mode: 'user',
    status: 'linked',
    accountId: 'acc-1',
    userId: 'user-1',
    email: 'host@example.com',
    name: 'Host Person',
    type: 2,
    // Wider than 32 bits, as real personal meeting IDs are.
    pmi: 98_765_432_101,
    scopes: ['meeting:read', 'meeting:write', 'user:read'],
    webinarLicense: true,
    accessToken: 'sealed:access-1',
    refreshToken: 'sealed:refresh-1',
    accessExpiresAt: 1_767_229_200_000,
    linkedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    tokenVersion: 1,
    ...over,
  };
}

export function sampleEvent(
  videoId: string,
  startTime: string,
  over: Partial<StoredEvent> = {},
): StoredEvent {
  return {
    videoId,
    topic: `Topic ${videoId}`,
    kind: 'meeting',
    startTime,
    timezone: 'Europe/Berlin',
    duration: 45,
    agenda: null,
    funnel: null,
    status: 'scheduled',
    registration: false,
    joinUrl: `https://meet.example.com/j/${videoId}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

function sampleRegistration(
  id: string,
  videoId: string,
  email: string,
  over: Partial<Registration> = {},
): Registration {
  return {
    id,
    videoId,
    email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    registrantId: `reg-${id}`,
    joinUrl: `https://meet.example.com/j/${videoId}?tk=${id}`,
    createdAt: '2026-01-02T00:00:00.000Z',
    ...over,
  };
}

function sampleState(stateHash: string, expiresAt: number): OAuthStateRecord {
  return {
    stateHash,
    verifier: `sealed:verifier-${stateHash}`,
    browserHash: `browser-${stateHash}`,
    expiresAt,
  };
}

/** Resolves when `fn` is first called: lets a test wait until a lock holder is inside. */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire = () => {};
  const wait = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { wait, fire };
}

/**
 * Two withLinkLock calls (on `a` and `b`, which may be the same store): the first holds the
 * lock across a 50 ms timer and bumps tokenVersion; the second must start only afterwards and
 * see the first's write. With `initial` undefined this is first-time linking (no row yet).
 */
export async function expectSerializedLinkLock(
  a: Store,
  b: Store,
  initial: LinkRecord | undefined,
): Promise<void> {
  const order: string[] = [];
  const inside = signal();
  const first = a.withLinkLock(async (link) => {
    order.push(`first:start:${link?.tokenVersion ?? 'none'}`);
    inside.fire();
    await sleep(50);
    order.push('first:end');
    const base = link ?? sampleLink({ tokenVersion: 0 });
    return { next: { ...base, tokenVersion: base.tokenVersion + 1 }, result: 'first' };
  });
  await inside.wait;
  const second = b.withLinkLock(async (link) => {
    order.push(`second:start:${link?.tokenVersion ?? 'none'}`);
    await sleep(5);
    order.push('second:end');
    return { result: 'second' };
  });
  expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  const v0 = initial?.tokenVersion ?? 'none';
  const v1 = (initial?.tokenVersion ?? 0) + 1;
  expect(order).toEqual([`first:start:${v0}`, 'first:end', `second:start:${v1}`, 'second:end']);
  expect((await a.getLink())?.tokenVersion).toBe(v1);
}

export function runStoreContract(name: string, make: () => Promise<ClosableStore>): void {
  describe(`Store contract: ${name}`, () => {
    let store: ClosableStore;

    beforeAll(async () => {
      store = await make();
      await store.migrate();
    });

    afterAll(async () => {
      await store?.close();
    });

    const regs = async (videoId: string) => (await store.listRegistrations(videoId, { limit: 1000 })).items;

    beforeEach(async () => {
      await store.deleteLink();
      for (const e of await storedEvents(store)) await store.deleteEvent(e.videoId);
    });

    describe('lifecycle', () => {
      it('names its kind', () => {
        expect(['sqlite', 'postgres']).toContain(store.kind);
      });

      it('answers ping and migrates again as a no-op', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await expect(store.migrate()).resolves.toBeUndefined();
        await store.saveLink(sampleLink());
        await store.migrate();
        expect(await store.getLink()).toEqual(sampleLink());
      });

      it('reports its migrations as all applied once migrated', async () => {
        const state = await store.migrations();
        expect(state.pending).toEqual([]);
        expect(state.applied).toEqual(
          expect.arrayContaining([
            '001_initial',
            '002_idempotency',
            '003_webhooks_out',
            '004_receipt_and_idempotency_age_indexes',
            '005_dashboard_sessions',
            '006_webhook_receipts_seq_index',
            '007_list_indexes',
            '008_stored_event_search',
            '009_counters',
          ]),
        );
      });
    });

    describe('change stamp', () => {
      it('moves with every write of the link, events and registrations, and holds still on reads', async () => {
        const stamps = [store.changeStamp().stamp];
        const moved = () => {
          const s = store.changeStamp().stamp;
          expect(stamps).not.toContain(s);
          stamps.push(s);
        };
        await store.getLink();
        await store.listEvents({ limit: 10 });
        await store.countRegistrations();
        expect(store.changeStamp().stamp).toBe(stamps[0]);
        await store.saveLink(sampleLink());
        moved();
        await store.withLinkLock((link) => Promise.resolve({ result: 1, ...(link ? { next: link } : {}) }));
        moved();
        await store.insertEvent(sampleEvent('cs1', '2026-02-01T10:00:00Z', { registration: true }));
        moved();
        await store.updateEvent('cs1', { topic: 'Renamed' });
        moved();
        await store.addRegistration(sampleRegistration('cs1-a', 'cs1', 'ada@example.com'));
        moved();
        await store.deleteEvent('cs1');
        moved();
        await store.deleteLink();
        moved();
        // Only an engine that sees other connections' commits may call its stamp exact.
        expect(store.changeStamp().exact).toBe(store.kind === 'sqlite');
      });
    });

    describe('link', () => {
      it('is absent on a fresh store', async () => {
        expect(await store.getLink()).toBeUndefined();
      });

      it('saves and reads back every field with its type', async () => {
        const link = sampleLink();
        await store.saveLink(link);
        const got = await store.getLink();
        expect(got).toEqual(link);
        expect(typeof got?.pmi).toBe('number');
        expect(typeof got?.accessExpiresAt).toBe('number');
        expect(typeof got?.tokenVersion).toBe('number');
        expect(got?.webinarLicense).toBe(true);
      });

      it('round-trips the other variants (s2s, no refresh token, no scopes, no licence)', async () => {
        const link = sampleLink({
          mode: 's2s',
          status: 'needs_relink',
          refreshToken: null,
          scopes: [],
          webinarLicense: false,
        });
        await store.saveLink(link);
        expect(await store.getLink()).toEqual(link);
      });

      it('overwrites on save (one link)', async () => {
        await store.saveLink(sampleLink());
        const next = sampleLink({
          accessToken: 'sealed:access-2',
          tokenVersion: 2,
          email: 'other@example.com',
        });
        await store.saveLink(next);
        expect(await store.getLink()).toEqual(next);
      });

      it('deletes, and deleting nothing is fine', async () => {
        await store.saveLink(sampleLink());
        await store.deleteLink();
        expect(await store.getLink()).toBeUndefined();
        await expect(store.deleteLink()).resolves.toBeUndefined();
      });
    });

    describe('withLinkLock', () => {
      it('passes the current link, returns the result and writes `next` through', async () => {
        await store.saveLink(sampleLink());
        const result = await store.withLinkLock((link) => {
          expect(link).toEqual(sampleLink());
          return Promise.resolve({
            next: sampleLink({ accessToken: 'sealed:access-2', tokenVersion: 2 }),
            result: 42,
          });
        });
        expect(result).toBe(42);
        expect(await store.getLink()).toEqual(
          sampleLink({ accessToken: 'sealed:access-2', tokenVersion: 2 }),
        );
      });

      it('leaves the link alone when fn returns no `next`', async () => {
        await store.saveLink(sampleLink());
        expect(await store.withLinkLock(() => Promise.resolve({ result: 'unchanged' }))).toBe('unchanged');
        expect(await store.getLink()).toEqual(sampleLink());
      });

      it('gives undefined when not linked, and can create the first link', async () => {
        const seen = await store.withLinkLock((link) =>
          Promise.resolve({ next: sampleLink(), result: link }),
        );
        expect(seen).toBeUndefined();
        expect(await store.getLink()).toEqual(sampleLink());
      });

      it('rolls back on throw, rethrows the error, and releases the lock', async () => {
        await store.saveLink(sampleLink());
        const boom = new Error('refresh failed');
        await expect(
          store.withLinkLock(async () => {
            await sleep(5);
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await store.getLink()).toEqual(sampleLink());
        // A write of `next` that fails is rolled back as a whole, too.
        await expect(
          store.withLinkLock((link) =>
            Promise.resolve({
              next: { ...sampleLink(), ...link, accountId: null as unknown as string },
              result: 'never',
            }),
          ),
        ).rejects.toThrow();
        expect(await store.getLink()).toEqual(sampleLink());
        // The lock is free again.
        await store.withLinkLock((link) =>
          Promise.resolve({ next: { ...sampleLink(), ...link, tokenVersion: 2 }, result: undefined }),
        );
        expect((await store.getLink())?.tokenVersion).toBe(2);
      });

      it('rolls back and releases when not linked yet, too', async () => {
        await expect(store.withLinkLock(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
        expect(await store.getLink()).toBeUndefined();
        await store.withLinkLock(() => Promise.resolve({ next: sampleLink(), result: undefined }));
        expect(await store.getLink()).toEqual(sampleLink());
      });

      it('serializes: a second caller waits while the first holds the lock across a timer', async () => {
        const initial = sampleLink({ tokenVersion: 7 });
        await store.saveLink(initial);
        await expectSerializedLinkLock(store, store, initial);
      });

      it('serializes first-time linking (no link row yet) the same way', async () => {
        await expectSerializedLinkLock(store, store, undefined);
      });

      it('never interleaves callers started together', async () => {
        await store.saveLink(sampleLink({ tokenVersion: 1 }));
        const order: string[] = [];
        const caller = (tag: string) =>
          store.withLinkLock(async (link) => {
            order.push(`${tag}:start`);
            await sleep(20);
            order.push(`${tag}:end`);
            if (!link) throw new Error('link vanished');
            return { next: { ...link, tokenVersion: link.tokenVersion + 1 }, result: tag };
          });
        await Promise.all([caller('a'), caller('b'), caller('c')]);
        expect(order).toHaveLength(6);
        for (let i = 0; i < order.length; i += 2) {
          const tag = order[i]?.split(':')[0];
          expect(order.slice(i, i + 2)).toEqual([`${tag}:start`, `${tag}:end`]);
        }
        expect((await store.getLink())?.tokenVersion).toBe(4);
      });
    });

    describe('OAuth state', () => {
      it('is returned once, then gone (single use)', async () => {
        const now = Date.now();
        const s = sampleState('state-once', now + 600_000);
        await store.putOAuthState(s);
        const got = await store.takeOAuthState('state-once', now);
        expect(got).toEqual(s);
        expect(typeof got?.expiresAt).toBe('number');
        expect(await store.takeOAuthState('state-once', now)).toBeUndefined();
      });

      it('is undefined for an unknown hash', async () => {
        expect(await store.takeOAuthState('state-unknown', Date.now())).toBeUndefined();
      });

      it('is not returned once expired, and is deleted all the same', async () => {
        const now = Date.now();
        await store.putOAuthState(sampleState('state-expired', now + 1_000));
        expect(await store.takeOAuthState('state-expired', now + 1_001)).toBeUndefined();
        expect(await store.takeOAuthState('state-expired', now)).toBeUndefined();
      });

      it('is still valid at exactly its expiry instant', async () => {
        const now = Date.now();
        const s = sampleState('state-edge', now + 1_000);
        await store.putOAuthState(s);
        expect(await store.takeOAuthState('state-edge', now + 1_000)).toEqual(s);
      });

      it('purges states already expired when a new one is put', async () => {
        const now = Date.now();
        await store.putOAuthState(sampleState('state-stale', now - 60_000));
        await store.putOAuthState(sampleState('state-new', now + 600_000));
        expect(await store.takeOAuthState('state-stale', 0)).toBeUndefined();
        expect(await store.takeOAuthState('state-new', now)).toBeDefined();
      });
    });

    describe('events', () => {
      it('inserts and reads back every field; unknown ids are undefined', async () => {
        const e = sampleEvent('9001', '2026-02-01T10:00:00Z', {
          agenda: 'Intro',
          funnel: 'spring',
          registration: true,
          timezone: null,
          joinUrl: null,
        });
        await store.insertEvent(e);
        expect(await store.getEvent('9001')).toEqual(e);
        expect(await store.getEvent('9002')).toBeUndefined();
      });

      it('refuses a second insert of the same id', async () => {
        await store.insertEvent(sampleEvent('9001', '2026-02-01T10:00:00Z'));
        await expect(store.insertEvent(sampleEvent('9001', '2026-03-01T10:00:00Z'))).rejects.toThrow();
        expect((await store.getEvent('9001'))?.startTime).toBe('2026-02-01T10:00:00Z');
      });

      it('lists by start time, then video id (bytewise), whatever the insert order', async () => {
        await store.insertEvent(sampleEvent('e3', '2026-03-01T10:00:00Z'));
        await store.insertEvent(sampleEvent('e2-b', '2026-02-01T10:00:00Z'));
        await store.insertEvent(sampleEvent('e1', '2026-01-01T10:00:00Z'));
        await store.insertEvent(sampleEvent('e2-a', '2026-02-01T10:00:00Z'));
        await store.insertEvent(sampleEvent('E2-z', '2026-02-01T10:00:00Z'));
        expect((await storedEvents(store)).map((e) => e.videoId)).toEqual([
          'e1',
          'E2-z',
          'e2-a',
          'e2-b',
          'e3',
        ]);
      });

      it('filters by funnel, status, from and to (inclusive), alone and combined', async () => {
        await store.insertEvent(sampleEvent('f1', '2026-01-10T09:00:00Z', { funnel: 'spring' }));
        await store.insertEvent(
          sampleEvent('f2', '2026-01-20T09:00:00Z', { funnel: 'spring', status: 'cancelled' }),
        );
        await store.insertEvent(sampleEvent('f3', '2026-01-30T09:00:00Z', { funnel: 'autumn' }));
        await store.insertEvent(sampleEvent('f4', '2026-02-10T09:00:00Z', { status: 'ended' }));
        const ids = async (f: EventFilter) => (await storedEvents(store, f)).map((e) => e.videoId);

        expect(await ids({})).toEqual(['f1', 'f2', 'f3', 'f4']);
        expect(await ids({ funnel: 'spring' })).toEqual(['f1', 'f2']);
        expect(await ids({ funnel: 'none-such' })).toEqual([]);
        expect(await ids({ status: 'scheduled' })).toEqual(['f1', 'f3']);
        expect(await ids({ status: 'ended' })).toEqual(['f4']);
        expect(await ids({ from: '2026-01-20T09:00:00Z' })).toEqual(['f2', 'f3', 'f4']);
        expect(await ids({ to: '2026-01-30T09:00:00Z' })).toEqual(['f1', 'f2', 'f3']);
        expect(await ids({ from: '2026-01-15', to: '2026-01-31' })).toEqual(['f2', 'f3']);
        expect(await ids({ funnel: 'spring', status: 'scheduled' })).toEqual(['f1']);
        expect(await ids({ funnel: 'spring', from: '2026-01-11' })).toEqual(['f2']);
        expect(await ids({ status: 'scheduled', to: '2026-01-29' })).toEqual(['f1']);
      });

      it('patches: returns and stores the merged event, keeps the id, undefined when unknown', async () => {
        const e = sampleEvent('u1', '2026-02-01T10:00:00Z', { funnel: 'spring', agenda: 'Old' });
        await store.insertEvent(e);
        const patched = await store.updateEvent('u1', {
          topic: 'New topic',
          status: 'started',
          funnel: null,
          registration: true,
          updatedAt: '2026-02-01T10:05:00.000Z',
          videoId: 'someone-else',
        });
        const expected: StoredEvent = {
          ...e,
          topic: 'New topic',
          status: 'started',
          funnel: null,
          registration: true,
          updatedAt: '2026-02-01T10:05:00.000Z',
        };
        expect(patched).toEqual(expected);
        expect(await store.getEvent('u1')).toEqual(expected);
        expect(await store.getEvent('someone-else')).toBeUndefined();
        expect(await store.updateEvent('u-missing', { topic: 'x' })).toBeUndefined();
        expect(await store.getEvent('u-missing')).toBeUndefined();
      });

      it('deletes (true once, then false), taking its registrations along', async () => {
        await store.insertEvent(sampleEvent('d1', '2026-02-01T10:00:00Z', { registration: true }));
        await store.insertEvent(sampleEvent('d2', '2026-02-02T10:00:00Z', { registration: true }));
        await store.addRegistration(sampleRegistration('d1-r1', 'd1', 'a@example.com'));
        await store.addRegistration(sampleRegistration('d2-r1', 'd2', 'a@example.com'));
        const before = await store.countRegistrations();
        expect(await store.deleteEvent('d1')).toBe(true);
        expect(await store.deleteEvent('d1')).toBe(false);
        expect(await store.getEvent('d1')).toBeUndefined();
        expect(await regs('d1')).toEqual([]);
        expect(await regs('d2')).toHaveLength(1);
        expect(await store.countRegistrations()).toBe(before - 1);
      });
    });

    describe('registrations', () => {
      it('adds, and a second add for the same (video, email) returns the first unchanged', async () => {
        await store.insertEvent(sampleEvent('r1', '2026-02-01T10:00:00Z', { registration: true }));
        const before = await store.countRegistrations();
        const first = sampleRegistration('r1-a', 'r1', 'grace@example.com');
        expect(await store.addRegistration(first)).toEqual(first);
        const again = await store.addRegistration(
          sampleRegistration('r1-b', 'r1', 'grace@example.com', {
            firstName: 'Grace',
            registrantId: 'other',
          }),
        );
        expect(again).toEqual(first);
        expect(await regs('r1')).toEqual([first]);
        expect(await store.countRegistrations()).toBe(before + 1);
      });

      it('keeps one per email per video, lists by creation time and counts them all', async () => {
        await store.insertEvent(sampleEvent('r2', '2026-02-01T10:00:00Z', { registration: true }));
        await store.insertEvent(sampleEvent('r3', '2026-02-02T10:00:00Z', { registration: true }));
        const before = await store.countRegistrations();
        const late = sampleRegistration('r2-late', 'r2', 'late@example.com', {
          createdAt: '2026-01-05T00:00:00.000Z',
        });
        const early = sampleRegistration('r2-early', 'r2', 'early@example.com', {
          createdAt: '2026-01-03T00:00:00.000Z',
          joinUrl: null,
        });
        const elsewhere = sampleRegistration('r3-a', 'r3', 'late@example.com');
        await store.addRegistration(late);
        await store.addRegistration(early);
        await store.addRegistration(elsewhere);
        expect(await regs('r2')).toEqual([early, late]);
        expect(await regs('r3')).toEqual([elsewhere]);
        expect(await regs('r-none')).toEqual([]);
        const count = await store.countRegistrations();
        expect(typeof count).toBe('number');
        expect(count).toBe(before + 3);
      });
    });

    describe('webhooks', () => {
      it('dedupes by id and remembers the last new receipt', async () => {
        expect(await store.lastWebhook()).toBeUndefined();
        expect(await store.recordWebhook('wh-1', 'meeting.started', '2026-02-01T10:00:00.000Z')).toBe(true);
        expect(await store.recordWebhook('wh-1', 'meeting.started', '2026-02-01T10:00:01.000Z')).toBe(false);
        expect(await store.lastWebhook()).toEqual({
          event: 'meeting.started',
          receivedAt: '2026-02-01T10:00:00.000Z',
        });
        // The pauses keep receipts in distinct milliseconds: the SQLite adapter orders receipts
        // by Date.now() and cannot tell two from the same millisecond apart.
        await sleep(5);
        expect(await store.recordWebhook('wh-2', 'meeting.ended', '2026-02-01T11:00:00.000Z')).toBe(true);
        await sleep(5);
        // A replay of an old receipt is not news.
        expect(await store.recordWebhook('wh-1', 'meeting.started', '2026-02-01T12:00:00.000Z')).toBe(false);
        expect(await store.lastWebhook()).toEqual({
          event: 'meeting.ended',
          receivedAt: '2026-02-01T11:00:00.000Z',
        });
      });

      const receipts = async (event: string) =>
        (await store.recentWebhooks(1000)).filter((r) => r.event === event).map((r) => r.receivedAt);
      const claim = (key: string) => ({
        key,
        requestHash: 'body-hash',
        status: 200,
        body: '',
        createdAt: '2026-02-01T10:00:00.000Z',
      });

      it('writes a receipt, its claim and its change in one transaction: a failed change leaves none', async () => {
        await store.insertEvent(sampleEvent('wh-ev', '2026-05-01T10:00:00Z'));
        const failing = {
          videoId: 'wh-ev',
          patch: (): Partial<StoredEvent> => {
            throw new Error('processing failed');
          },
        };
        await expect(
          store.recordWebhook('wh-fx', 'fx.started', '2026-02-01T10:00:00.000Z', {
            claim: claim('sig-fx'),
            change: failing,
          }),
        ).rejects.toThrow('processing failed');
        expect(await receipts('fx.started')).toEqual([]);
        expect(await store.getIdempotent('sig-fx')).toBeUndefined();
        expect((await store.getEvent('wh-ev'))?.status).toBe('scheduled');
        // The retry is new; the patch sees the event as stored.
        const seen: StoredEvent[] = [];
        const working = {
          videoId: 'wh-ev',
          patch: (prev: StoredEvent) => {
            seen.push(prev);
            return { status: 'started' as const, topic: `${prev.topic} (live)` };
          },
        };
        expect(
          await store.recordWebhook('wh-fx', 'fx.started', '2026-02-01T10:00:01.000Z', {
            claim: claim('sig-fx'),
            change: working,
          }),
        ).toBe(true);
        expect(seen.map((e) => e.status)).toEqual(['scheduled']);
        expect(await store.getEvent('wh-ev')).toMatchObject({
          status: 'started',
          topic: 'Topic wh-ev (live)',
        });
        expect(await store.getIdempotent('sig-fx')).toEqual(claim('sig-fx'));
        expect(await receipts('fx.started')).toEqual(['2026-02-01T10:00:01.000Z']);
        // Seen before, by receipt or by claim: nothing is applied again.
        expect(
          await store.recordWebhook('wh-fx', 'fx.started', '2026-02-01T10:00:02.000Z', { change: working }),
        ).toBe(false);
        expect(
          await store.recordWebhook('wh-fx-2', 'fx.started', '2026-02-01T10:00:03.000Z', {
            claim: claim('sig-fx'),
            change: working,
          }),
        ).toBe(false);
        expect(seen).toHaveLength(1);
        expect(await receipts('fx.started')).toEqual(['2026-02-01T10:00:01.000Z']);
      });

      it('records a receipt whose change finds no event, or leaves it as it is', async () => {
        await store.insertEvent(sampleEvent('wh-same', '2026-05-02T10:00:00Z'));
        const untouched = await store.getEvent('wh-same');
        expect(
          await store.recordWebhook('wh-none', 'fx.none', '2026-02-01T10:00:00.000Z', {
            change: { videoId: 'wh-missing', patch: () => ({ status: 'ended' }) },
          }),
        ).toBe(true);
        expect(
          await store.recordWebhook('wh-same', 'fx.none', '2026-02-01T10:00:01.000Z', {
            change: { videoId: 'wh-same', patch: () => undefined },
          }),
        ).toBe(true);
        expect(await store.getEvent('wh-missing')).toBeUndefined();
        expect(await store.getEvent('wh-same')).toEqual(untouched);
        expect(await receipts('fx.none')).toHaveLength(2);
      });

      it('prunes receipts received before a time, in batches, keeping the newest', async () => {
        for (const [id, at] of [
          ['prune-old-1', '2025-01-01T00:00:00.000Z'],
          ['prune-old-2', '2025-01-02T00:00:00.000Z'],
          ['prune-old-3', '2025-01-03T00:00:00.000Z'],
          ['prune-fresh', '2026-06-01T00:00:00.000Z'],
        ] as const) {
          await store.recordWebhook(id, 'fx.prune', at);
          await sleep(5);
        }
        expect(await store.pruneWebhookReceipts('2025-06-01T00:00:00.000Z', 2)).toBe(2);
        expect(await store.pruneWebhookReceipts('2025-06-01T00:00:00.000Z', 2)).toBe(1);
        expect(await store.pruneWebhookReceipts('2025-06-01T00:00:00.000Z', 2)).toBe(0);
        expect(await receipts('fx.prune')).toEqual(['2026-06-01T00:00:00.000Z']);
        // A pruned id is forgotten: it counts as new again.
        expect(await store.recordWebhook('prune-old-1', 'fx.prune', '2025-01-04T00:00:00.000Z')).toBe(true);
        // ...and, being the newest receipt, stays however old it is (the monitor's last received).
        expect(await store.pruneWebhookReceipts('2025-06-01T00:00:00.000Z', 100)).toBe(0);
        expect(await store.lastWebhook()).toEqual({
          event: 'fx.prune',
          receivedAt: '2025-01-04T00:00:00.000Z',
        });
        expect(await store.pruneWebhookReceipts('2027-01-01T00:00:00.000Z', 1000)).toBeGreaterThan(0);
        expect(await store.recentWebhooks(1000)).toEqual([
          { event: 'fx.prune', receivedAt: '2025-01-04T00:00:00.000Z' },
        ]);
      });
    });

    describe('idempotency keys', () => {
      const record = (key: string) => ({
        key,
        requestHash: `hash-${key}`,
        status: 0,
        body: '',
        createdAt: '2026-02-01T10:00:00.000Z',
      });

      it('claims a key once; a second claim fails and keeps the first', async () => {
        expect(await store.getIdempotent('idem-1')).toBeUndefined();
        expect(await store.putIdempotent(record('idem-1'))).toBe(true);
        expect(await store.getIdempotent('idem-1')).toEqual(record('idem-1'));
        expect(await store.putIdempotent({ ...record('idem-1'), requestHash: 'other' })).toBe(false);
        expect(await store.getIdempotent('idem-1')).toEqual(record('idem-1'));
      });

      it('finishes a claim with the stored answer', async () => {
        await store.putIdempotent(record('idem-2'));
        await store.finishIdempotent('idem-2', 201, '{"id":"9001"}');
        expect(await store.getIdempotent('idem-2')).toEqual({
          ...record('idem-2'),
          status: 201,
          body: '{"id":"9001"}',
        });
        await expect(store.finishIdempotent('idem-none', 200, '{}')).resolves.toBeUndefined();
        expect(await store.getIdempotent('idem-none')).toBeUndefined();
      });

      it('reclaims only a stale running claim of the same request, once', async () => {
        await store.putIdempotent(record('idem-r'));
        const later = { ...record('idem-r'), createdAt: '2026-02-01T11:00:00.000Z' };
        // Not stale yet, another request, then the takeover, which a second retry cannot repeat.
        expect(await store.reclaimIdempotent(later, '2026-02-01T10:00:00.000Z')).toBe(false);
        expect(await store.reclaimIdempotent({ ...later, requestHash: 'other' }, later.createdAt)).toBe(
          false,
        );
        expect(await store.reclaimIdempotent(later, later.createdAt)).toBe(true);
        expect(await store.reclaimIdempotent(later, later.createdAt)).toBe(false);
        expect(await store.getIdempotent('idem-r')).toEqual(later);
        await store.finishIdempotent('idem-r', 200, '{}');
        const stale = { ...later, createdAt: '2026-02-01T12:00:00.000Z' };
        expect(await store.reclaimIdempotent(stale, stale.createdAt)).toBe(false);
      });

      it('prunes keys created before a time, in batches, whatever their state', async () => {
        const at = (key: string, createdAt: string, status: number) => ({
          ...record(key),
          createdAt,
          status,
        });
        await store.putIdempotent(at('prune-old-a', '2025-01-01T00:00:00.000Z', 0));
        await store.putIdempotent(at('prune-old-b', '2025-01-01T00:00:01.000Z', 201));
        await store.putIdempotent(at('prune-new', '2026-06-01T00:00:00.000Z', 201));
        expect(await store.pruneIdempotent('2025-06-01T00:00:00.000Z', 1)).toBe(1);
        expect(await store.pruneIdempotent('2025-06-01T00:00:00.000Z', 1)).toBe(1);
        expect(await store.pruneIdempotent('2025-06-01T00:00:00.000Z', 1)).toBe(0);
        expect(await store.getIdempotent('prune-old-a')).toBeUndefined();
        expect(await store.getIdempotent('prune-old-b')).toBeUndefined();
        expect(await store.getIdempotent('prune-new')).toEqual(
          at('prune-new', '2026-06-01T00:00:00.000Z', 201),
        );
      });

      it('drops a claim so the key can be claimed again', async () => {
        await store.putIdempotent(record('idem-3'));
        await store.dropIdempotent('idem-3');
        expect(await store.getIdempotent('idem-3')).toBeUndefined();
        expect(await store.putIdempotent(record('idem-3'))).toBe(true);
        await expect(store.dropIdempotent('idem-none')).resolves.toBeUndefined();
      });
    });

    describe('sealed values', () => {
      it('lists every sealed value and rewrites each in place', async () => {
        await store.saveLink(sampleLink());
        const now = Date.now();
        await store.putOAuthState(sampleState('state-sealed', now + 600_000));
        const values = await store.sealedValues();
        expect(values).toEqual(
          expect.arrayContaining([
            { table: 'link', id: 'default', column: 'access_token', value: 'sealed:access-1' },
            { table: 'link', id: 'default', column: 'refresh_token', value: 'sealed:refresh-1' },
            {
              table: 'oauth_states',
              id: 'state-sealed',
              column: 'verifier',
              value: 'sealed:verifier-state-sealed',
            },
          ]),
        );
        for (const v of values) expect(await store.rewriteSealed(v, `re${v.value}`)).toBe(true);
        const link = await store.getLink();
        expect(link?.accessToken).toBe('resealed:access-1');
        expect(link?.refreshToken).toBe('resealed:refresh-1');
        expect(link?.tokenVersion).toBe(1);
        expect((await store.takeOAuthState('state-sealed', now))?.verifier).toBe(
          'resealed:verifier-state-sealed',
        );
      });

      it('rewrites a value only while it still holds what was read (compare-and-swap)', async () => {
        await store.saveLink(sampleLink());
        const now = Date.now();
        await store.putOAuthState(sampleState('state-cas', now + 600_000));
        const read = await store.sealedValues();
        const access = read.find((v) => v.column === 'access_token');
        const verifier = read.find((v) => v.id === 'state-cas');
        if (!access || !verifier) throw new Error('sealed values missing');
        // A refresh lands between the read and the write.
        await store.withLinkLock((link) =>
          Promise.resolve({
            result: undefined,
            ...(link ? { next: { ...link, accessToken: 'sealed:access-2', tokenVersion: 2 } } : {}),
          }),
        );
        expect(await store.rewriteSealed(access, 'resealed:access-1')).toBe(false);
        expect((await store.getLink())?.accessToken).toBe('sealed:access-2');
        // A row taken since (a used OAuth state) is not written either.
        expect(await store.takeOAuthState('state-cas', now)).toBeDefined();
        expect(await store.rewriteSealed(verifier, 'resealed:verifier')).toBe(false);
        // Read again, the swap goes through.
        const again = (await store.sealedValues()).find((v) => v.column === 'access_token');
        expect(again?.value).toBe('sealed:access-2');
        if (!again) throw new Error('access token missing');
        expect(await store.rewriteSealed(again, 'resealed:access-2')).toBe(true);
        expect(await store.getLink()).toMatchObject({ accessToken: 'resealed:access-2', tokenVersion: 2 });
      });

      it('lists no refresh token when the link has none', async () => {
        await store.saveLink(sampleLink({ refreshToken: null }));
        const linkValues = (await store.sealedValues()).filter((v) => v.table === 'link');
        expect(linkValues).toEqual([
          { table: 'link', id: 'default', column: 'access_token', value: 'sealed:access-1' },
        ]);
      });

      it('refuses to rewrite anything that is not a sealed column', async () => {
        await store.saveLink(sampleLink());
        const was = { table: 'link', id: 'default', column: 'email', value: sampleLink().email };
        await expect(store.rewriteSealed(was, 'x')).rejects.toThrow();
        await expect(
          store.rewriteSealed(
            { table: 'stored_events', id: '9001', column: 'topic', value: 'Topic 9001' },
            'x',
          ),
        ).rejects.toThrow();
        expect(await store.getLink()).toEqual(sampleLink());
      });
    });

    describe('dashboard sessions', () => {
      const now = 1_767_225_600_000;
      const session = (id: string, keyId = 'key-a', expiresAt = now + 60_000) => ({
        id,
        keyId,
        expiresAt,
        createdAt: new Date(now).toISOString(),
      });
      beforeEach(async () => {
        await store.sessions.endAllBut('none', Number.MAX_SAFE_INTEGER);
      });

      it('is live once added, for its key only, until it expires', async () => {
        await store.sessions.add(session('s-1'), now);
        expect(await store.sessions.live('s-1', 'key-a', now)).toBe(true);
        expect(await store.sessions.live('s-1', 'key-a', now + 59_999)).toBe(true);
        expect(await store.sessions.live('s-1', 'key-a', now + 60_000)).toBe(false);
        expect(await store.sessions.live('s-1', 'key-b', now)).toBe(false);
        expect(await store.sessions.live('s-2', 'key-a', now)).toBe(false);
      });

      it('ends one session (true once, then false) and leaves the others', async () => {
        await store.sessions.add(session('s-1'), now);
        await store.sessions.add(session('s-2'), now);
        expect(await store.sessions.end('s-1')).toBe(true);
        expect(await store.sessions.end('s-1')).toBe(false);
        expect(await store.sessions.live('s-1', 'key-a', now)).toBe(false);
        expect(await store.sessions.live('s-2', 'key-a', now)).toBe(true);
      });

      it('drops expired sessions and those of another key when one is added', async () => {
        await store.sessions.add(session('old', 'key-a', now + 10), now);
        await store.sessions.add(session('other-key', 'key-b'), now);
        // Added with key-a after old expired: other-key goes (another key), old goes (expired).
        await store.sessions.add(session('new'), now + 20);
        expect(await store.sessions.end('old')).toBe(false);
        expect(await store.sessions.end('other-key')).toBe(false);
        expect(await store.sessions.live('new', 'key-a', now + 20)).toBe(true);
      });

      it('ends every session of another key, and expired ones, saying how many', async () => {
        await store.sessions.add(session('a-1'), now);
        await store.sessions.add(session('a-2'), now);
        await store.sessions.add(session('a-3', 'key-a', now + 5), now);
        expect(await store.sessions.endAllBut('key-b', now)).toBe(3);
        expect(await store.sessions.live('a-1', 'key-a', now)).toBe(false);
        await store.sessions.add(session('a-4'), now);
        await store.sessions.add(session('a-5', 'key-a', now + 5), now);
        expect(await store.sessions.endAllBut('key-a', now + 10)).toBe(1);
        expect(await store.sessions.live('a-4', 'key-a', now + 10)).toBe(true);
      });

      it('keeps epoch milliseconds beyond 32 bits exactly', async () => {
        const far = 8_640_000_000_000;
        await store.sessions.add(session('far', 'key-a', far), now);
        expect(await store.sessions.live('far', 'key-a', far - 1)).toBe(true);
        expect(await store.sessions.live('far', 'key-a', far)).toBe(false);
      });
    });
  });
}
