/**
 * The platform's webhook timestamp window, at its edges: a signed delivery whose timestamp is
 * exactly five minutes from our clock, or a millisecond inside, is taken; a millisecond outside,
 * in the past or the future, is refused as stale. The intake's clock is injected, so the edges
 * are exact; the store is a real one.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { WebhookIntake } from '../../src/gateway/webhook-intake.js';
import { createLogger } from '../../src/log.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/store.js';

const SECRET = 'window-secret';
const WINDOW_MS = 5 * 60_000;
/** The delivery's timestamp, in whole seconds as the platform sends it. */
const TS = 1_800_000_000;
const AT = TS * 1000;

let dir: string;
let store: Store;
let now = AT;
let intake: WebhookIntake;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-window-'));
  store = await createStore({ databaseUrl: undefined, dataDir: dir });
  intake = new WebhookIntake({
    secret: SECRET,
    store,
    now: () => now,
    logger: createLogger('silent'),
    onRecording: () => undefined,
  });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
/** A signed delivery stamped TS, received when our clock reads `at`. */
async function deliverAt(at: number): Promise<number | string> {
  now = at;
  n += 1;
  const body = JSON.stringify({
    event: 'meeting.started',
    event_ts: AT,
    payload: { account_id: 'acc', object: { id: `window-${n}` } },
  });
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${TS}:${body}`).digest('hex')}`;
  try {
    const r = await intake.receive(
      { 'x-zm-request-timestamp': String(TS), 'x-zm-signature': signature, 'x-zm-request-id': `req-${n}` },
      Buffer.from(body),
    );
    return r.status;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('the webhook timestamp window', () => {
  it.each([
    ['exactly five minutes after the timestamp', AT + WINDOW_MS, 200],
    ['a millisecond inside, after', AT + WINDOW_MS - 1, 200],
    ['a millisecond outside, after', AT + WINDOW_MS + 1, 'stale_webhook'],
    ['a second outside, after', AT + WINDOW_MS + 1000, 'stale_webhook'],
    ['exactly five minutes before the timestamp', AT - WINDOW_MS, 200],
    ['a millisecond inside, before', AT - WINDOW_MS + 1, 200],
    ['a millisecond outside, before', AT - WINDOW_MS - 1, 'stale_webhook'],
    ['at the timestamp', AT, 200],
  ] as const)('%s: %s', async (_what, at, expected) => {
    expect(await deliverAt(at)).toBe(expected);
  });
});
