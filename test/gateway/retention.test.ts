/**
 * Pruning by age, on a real SQLite store with an injected clock: receipts, idempotency keys and
 * finished outgoing-webhook deliveries older than their retention go (in batches, however many),
 * newer ones stay, pending deliveries and the newest receipt stay whatever their age, OAuth
 * states go once expired; one log line tells what went; the periodic job runs at start, keeps
 * running, and stops on the gateway's close. The retention comes from the environment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { RetentionJob } from '../../src/gateway/retention.js';
import { createLogger } from '../../src/log.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/store.js';
import type { WebhookSubscription } from '../../src/store/webhooks.js';
import { eventually } from '../helpers/build-test-app.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2031-05-10T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-retention-'));
  store = await createStore({ databaseUrl: undefined, dataDir: dir });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

let seq = 0;
/** A receipt and an idempotency key `ageMs` before NOW. */
async function rowsAged(ageMs: number): Promise<string> {
  seq += 1;
  const id = `aged-${seq}`;
  await store.recordWebhook(id, id, iso(NOW - ageMs));
  await store.putIdempotent({
    key: id,
    requestHash: 'h',
    status: 201,
    body: '{}',
    createdAt: iso(NOW - ageMs),
  });
  return id;
}
/** Which of `ids` still have their receipt (the receipt's event is its row's id). */
const receiptsLeft = async (ids: string[]) =>
  (await store.recentWebhooks(10_000))
    .map((r) => r.event)
    .filter((id) => ids.includes(id))
    .sort();

const subscription: WebhookSubscription = {
  id: 'sub_all',
  url: 'https://hooks.example.com/all',
  events: ['*'],
  secret: 'sealed:x',
  source: 'api',
  createdAt: iso(NOW - 400 * DAY),
};
/** `n` messages written `ageMs` before NOW, one delivery each, finished `ageMs` before NOW. */
async function deliveriesAged(ageMs: number, status: 'delivered' | 'failed' | 'pending', n = 1) {
  const at = NOW - ageMs;
  const ids = new Set<string>();
  for (let i = 0; i < n; i++) {
    seq += 1;
    ids.add(`msg_aged_${seq}`);
    await store.webhooks.enqueue([
      { id: `msg_aged_${seq}`, type: 'event.created', payload: '{}', createdAt: iso(at) },
    ]);
  }
  if (status === 'pending') return;
  // Older pending ones are due too: they are left leased for a minute of `at`, long past at NOW.
  const claimed = await store.webhooks.claimDeliveries({ now: at, leaseMs: 60_000, limit: 1000 });
  for (const d of claimed.filter((c) => ids.has(c.message.id)))
    await store.webhooks.finishDelivery(d.id, d.lockToken, { status, at, httpStatus: 200, error: null });
}
/** An OAuth state that expires at `expiresAt`. */
async function stateExpiring(expiresAt: number): Promise<string> {
  seq += 1;
  const stateHash = `state-${seq}`;
  await store.putOAuthState({ stateHash, verifier: 'sealed:v', browserHash: 'b', expiresAt });
  return stateHash;
}
/** Whether the state is still stored (taking it at a time before any expiry). */
const stateLeft = async (stateHash: string) => (await store.takeOAuthState(stateHash, 0)) !== undefined;

const nothing = { receipts: 0, idempotencyKeys: 0, deliveries: 0, oauthStates: 0 };

const job = (
  o: { everyMs?: number; batch?: number; now?: () => number; logger?: ReturnType<typeof createLogger> } = {},
) =>
  new RetentionJob({
    store,
    now: o.now ?? (() => NOW),
    logger: createLogger('silent'),
    policy: { receiptsMs: 7 * DAY, idempotencyMs: 24 * HOUR, deliveriesMs: 7 * DAY },
    ...o,
  });

beforeEach(async () => {
  // Everything from earlier tests goes (the newest receipt stays, by design); pending
  // deliveries are never pruned, so they go with their subscription.
  await store.webhooks.deleteSubscription(subscription.id);
  await job({ now: () => NOW + 100 * 365 * DAY }).runOnce();
  await store.webhooks.putSubscription(subscription);
});

describe('retention', () => {
  it('prunes rows older than their retention and keeps newer ones', async () => {
    const old = [await rowsAged(30 * DAY), await rowsAged(8 * DAY)];
    const middle = await rowsAged(3 * DAY); // an old idempotency key, a recent receipt
    const fresh = await rowsAged(2 * HOUR);
    const newest = await rowsAged(1 * HOUR);
    expect(await job().runOnce()).toEqual({ ...nothing, receipts: 2, idempotencyKeys: 3 });
    expect(await receiptsLeft([...old, middle, fresh, newest])).toEqual([middle, fresh, newest].sort());
    for (const key of [...old, middle]) expect(await store.getIdempotent(key), key).toBeUndefined();
    for (const key of [fresh, newest]) expect(await store.getIdempotent(key), key).toBeDefined();
    // Nothing more to do until the clock moves on.
    expect(await job().runOnce()).toEqual(nothing);
    expect(await job({ now: () => NOW + 3 * DAY }).runOnce()).toEqual({ ...nothing, idempotencyKeys: 2 });
  });

  it('works through any backlog in batches', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await rowsAged(10 * DAY + i));
    const fresh = await rowsAged(1 * HOUR);
    await deliveriesAged(10 * DAY, 'delivered', 25);
    for (let i = 0; i < 25; i++) await stateExpiring(NOW - i - 1);
    expect(await job({ batch: 4 }).runOnce()).toEqual({
      receipts: 25,
      idempotencyKeys: 25,
      deliveries: 25,
      oauthStates: 25,
    });
    expect(await receiptsLeft([...ids, fresh])).toEqual([fresh]);
    expect(await store.webhooks.deliveryCounts()).toEqual({ pending: 0, delivered: 0, failed: 0 });
  });

  it('prunes finished deliveries past their retention, never pending ones however old', async () => {
    await deliveriesAged(30 * DAY, 'delivered', 2);
    await deliveriesAged(8 * DAY, 'failed');
    await deliveriesAged(30 * DAY, 'pending');
    await deliveriesAged(6 * DAY, 'failed');
    await deliveriesAged(1 * HOUR, 'delivered');
    expect(await job().runOnce()).toEqual({ ...nothing, deliveries: 3 });
    expect(await store.webhooks.deliveryCounts()).toEqual({ pending: 1, delivered: 1, failed: 1 });
    // The pending one is still deliverable, message and all.
    const [pending] = await store.webhooks.claimDeliveries({ now: NOW, leaseMs: 60_000, limit: 10 });
    expect(pending?.message.createdAt).toBe(iso(NOW - 30 * DAY));
    expect(await job({ now: () => NOW + 100 * 365 * DAY }).runOnce()).toEqual({ ...nothing, deliveries: 2 });
    expect(await store.webhooks.deliveryCounts()).toEqual({ pending: 1, delivered: 0, failed: 0 });
  });

  it('prunes OAuth states once they have expired', async () => {
    const expired = await stateExpiring(NOW - 1);
    const live = await stateExpiring(NOW + 10 * 60_000);
    expect(await job().runOnce()).toEqual({ ...nothing, oauthStates: 1 });
    expect(await stateLeft(expired)).toBe(false);
    expect(await stateLeft(live)).toBe(true);
  });

  it('logs one line with what went, and none when nothing did', async () => {
    const lines: unknown[] = [];
    const out = new PassThrough();
    out.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
    });
    const logger = createLogger('info', out);
    await rowsAged(30 * DAY);
    await sleep(5); // the fresh receipt is the newest, which is kept
    await rowsAged(1 * HOUR);
    await deliveriesAged(30 * DAY, 'delivered');
    await stateExpiring(NOW - 1);
    await job({ logger }).runOnce();
    await job({ logger }).runOnce();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'pruned old rows',
        receipts: 1,
        idempotencyKeys: 1,
        deliveries: 1,
        oauthStates: 1,
      }),
    ]);
  });

  it('keeps the newest receipt however old, for the monitor', async () => {
    const older = await rowsAged(40 * DAY);
    await sleep(5); // SQLite orders receipts by the millisecond they were written
    const newest = await rowsAged(20 * DAY);
    await job().runOnce();
    expect(await store.lastWebhook()).toEqual({ event: newest, receivedAt: iso(NOW - 20 * DAY) });
    expect(await receiptsLeft([older, newest])).toEqual([newest]);
  });

  it('runs at start and then periodically, and not after stop()', async () => {
    let clock = NOW;
    const periodic = job({ everyMs: 5, now: () => clock });
    const first = await rowsAged(9 * DAY);
    periodic.start();
    await eventually(async () => expect(await store.getIdempotent(first)).toBeUndefined());
    const second = await rowsAged(2 * HOUR);
    clock = NOW + 2 * DAY; // the key is now past its 24 hours
    await eventually(async () => expect(await store.getIdempotent(second)).toBeUndefined());
    await periodic.stop();
    const third = await rowsAged(2 * HOUR);
    clock = NOW + 4 * DAY;
    await sleep(50); // ten periods
    expect(await store.getIdempotent(third)).toBeDefined();
  });
});

describe('retention settings', () => {
  const base = { FLEETGATE_DATA_DIR: '/tmp/x' };

  it('default to 7 days for receipts and deliveries and 24 hours for idempotency keys, and read the environment', () => {
    expect(parseConfig(base).retention).toEqual({
      receiptsMs: 7 * DAY,
      idempotencyMs: 24 * HOUR,
      deliveriesMs: 7 * DAY,
    });
    expect(
      parseConfig({
        ...base,
        FLEETGATE_RECEIPT_RETENTION_DAYS: '30',
        FLEETGATE_IDEMPOTENCY_RETENTION_HOURS: '72',
        FLEETGATE_DELIVERY_RETENTION_DAYS: '14',
      }).retention,
    ).toEqual({ receiptsMs: 30 * DAY, idempotencyMs: 72 * HOUR, deliveriesMs: 14 * DAY });
  });

  it('refuse retentions shorter than the platform retries for, or not whole numbers', () => {
    for (const [name, value] of [
      ['FLEETGATE_RECEIPT_RETENTION_DAYS', '0'],
      ['FLEETGATE_RECEIPT_RETENTION_DAYS', '1.5'],
      ['FLEETGATE_IDEMPOTENCY_RETENTION_HOURS', '0'],
      ['FLEETGATE_IDEMPOTENCY_RETENTION_HOURS', 'a day'],
    ] as const) {
      expect(() => parseConfig({ ...base, [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });
});
