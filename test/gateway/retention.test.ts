/**
 * Pruning by age, on a real SQLite store with an injected clock: receipts and idempotency keys
 * older than their retention go (in batches, however many), newer ones stay, the newest
 * receipt stays whatever its age; the periodic job runs at start, keeps running, and stops on
 * the gateway's close. The retention comes from the environment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { RetentionJob } from '../../src/gateway/retention.js';
import { createLogger } from '../../src/log.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/store.js';
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

const job = (o: { everyMs?: number; batch?: number; now?: () => number } = {}) =>
  new RetentionJob({
    store,
    now: o.now ?? (() => NOW),
    logger: createLogger('silent'),
    policy: { receiptsMs: 7 * DAY, idempotencyMs: 24 * HOUR },
    ...o,
  });

beforeEach(async () => {
  // Everything from earlier tests goes (the newest receipt stays, by design).
  await job({ now: () => NOW + 100 * 365 * DAY }).runOnce();
});

describe('retention', () => {
  it('prunes rows older than their retention and keeps newer ones', async () => {
    const old = [await rowsAged(30 * DAY), await rowsAged(8 * DAY)];
    const middle = await rowsAged(3 * DAY); // an old idempotency key, a recent receipt
    const fresh = await rowsAged(2 * HOUR);
    const newest = await rowsAged(1 * HOUR);
    expect(await job().runOnce()).toEqual({ receipts: 2, idempotencyKeys: 3 });
    expect(await receiptsLeft([...old, middle, fresh, newest])).toEqual([middle, fresh, newest].sort());
    for (const key of [...old, middle]) expect(await store.getIdempotent(key), key).toBeUndefined();
    for (const key of [fresh, newest]) expect(await store.getIdempotent(key), key).toBeDefined();
    // Nothing more to do until the clock moves on.
    expect(await job().runOnce()).toEqual({ receipts: 0, idempotencyKeys: 0 });
    expect(await job({ now: () => NOW + 3 * DAY }).runOnce()).toEqual({ receipts: 0, idempotencyKeys: 2 });
  });

  it('works through any backlog in batches', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await rowsAged(10 * DAY + i));
    const fresh = await rowsAged(1 * HOUR);
    expect(await job({ batch: 4 }).runOnce()).toEqual({ receipts: 25, idempotencyKeys: 25 });
    expect(await receiptsLeft([...ids, fresh])).toEqual([fresh]);
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

  it('default to 7 days for receipts and 24 hours for idempotency keys, and read the environment', () => {
    expect(parseConfig(base).retention).toEqual({ receiptsMs: 7 * DAY, idempotencyMs: 24 * HOUR });
    expect(
      parseConfig({
        ...base,
        FLEETGATE_RECEIPT_RETENTION_DAYS: '30',
        FLEETGATE_IDEMPOTENCY_RETENTION_HOURS: '72',
      }).retention,
    ).toEqual({ receiptsMs: 30 * DAY, idempotencyMs: 72 * HOUR });
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
