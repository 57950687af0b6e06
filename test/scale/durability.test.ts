/**
 * An event creation acknowledged with 201 survives kill -9 of the instance that wrote it, with
 * the embedded SQLite store and with PostgreSQL. The kill comes during a steady stream of
 * writes, right after an acknowledgement, while one write is held at the platform and others
 * are under way; the test counts them and fails if none was in flight.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/spawn-service.js';
import { requireService } from '../helpers/services.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const KEY = 'durability-test-key-0123456789';

let emu: TestEmulator;
let accountId: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  accountId = (await emu.api('GET', '/v2/users/me', { token: (await emu.userToken()).access_token })).json
    .account_id;
});
afterAll(() => emu.close());

/** Writers posting without pause, so some writes are always under way. */
const WRITERS = 6;
/** Acknowledgements before one write is held at the platform. */
const ACKS_BEFORE_HOLD = 8;
/** Longer than it takes to kill the process once the hold has begun, under the upstream timeout. */
const HELD_MS = 3000;

const post = (base: string, topic: string) =>
  fetch(`${base}/api/video/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ topic, start_time: '2031-03-01T10:00:00.000Z' }),
  });

async function killDuringWrites(extraEnv: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-kill-'));
  const env = {
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_SANDBOX: '0',
    FLEETGATE_API_KEY: KEY,
    VIDEO_CLIENT_ID: 'sandbox-client',
    VIDEO_CLIENT_SECRET: 'sandbox-secret',
    VIDEO_ACCOUNT_ID: accountId,
    VIDEO_API_BASE: `${emu.base}/v2`,
    VIDEO_OAUTH_BASE: emu.base,
    BRAND_WATCH: '0',
    ...extraEnv,
  };
  try {
    const first = await startService(env);
    const sent: string[] = [];
    const acked: string[] = [];
    let unanswered = 0;
    let answeredOtherwise = 0;
    let pending = 0;
    let holdPlaced = false;
    let atKill: { acked: number; pending: number } | undefined;
    // One write, counted as acknowledged (201 with its id), answered otherwise, or never answered.
    const write = async (topic: string) => {
      sent.push(topic);
      pending += 1;
      try {
        const r = await post(first.base, topic);
        const body = (await r.json()) as { video_id?: string };
        if (r.status === 201 && body.video_id) acked.push(body.video_id);
        else answeredOtherwise += 1;
      } catch {
        unanswered += 1;
      } finally {
        pending -= 1;
      }
    };
    // The next create the platform gets waits there, so at least one write is provably under way
    // (its platform call made, nothing stored yet) when the process dies.
    const holdOne = () =>
      emu.api('POST', '/_sandbox/faults', {
        body: { path: '/v2/users/*', method: 'POST', delayMs: HELD_MS, times: 1 },
      });
    const holding = async () => (await emu.api('GET', '/_sandbox/faults')).json.faults.length === 0;
    const writer = async (w: number) => {
      for (let i = 0; i < 200 && !atKill; i++) {
        await write(`Durable ${w}-${i}`);
        if (atKill) return;
        if (!holdPlaced && acked.length >= ACKS_BEFORE_HOLD) {
          holdPlaced = true;
          await holdOne();
        } else if (holdPlaced && (await holding()) && !atKill) {
          // Killed right after an acknowledgement, with the held write and others still out.
          atKill = { acked: acked.length, pending };
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    await first.stop('SIGKILL');
    await emu.api('DELETE', '/_sandbox/faults');

    expect(atKill, `the writers ran out before the kill (${acked.length} acknowledged)`).toEqual({
      acked: expect.any(Number),
      pending: expect.any(Number),
    });
    expect(atKill!.acked).toBeGreaterThanOrEqual(ACKS_BEFORE_HOLD);
    expect(atKill!.pending, 'writes sent and not yet answered at the kill').toBeGreaterThanOrEqual(1);
    expect(unanswered, 'writes the kill cut off').toBeGreaterThanOrEqual(1);
    expect(acked.length + answeredOtherwise + unanswered).toBe(sent.length);

    const second = await startService(env);
    try {
      const res = await fetch(`${second.base}/api/video/events?limit=500`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(res.status).toBe(200);
      const items = ((await res.json()) as { items: { video_id: string; topic: string }[] }).items;
      const stored = items.map((e) => e.video_id);
      for (const id of acked) expect(stored).toContain(id);
      // Nothing stored that was not sent; a write cut off may or may not have been kept.
      for (const e of items) expect(sent).toContain(e.topic);
      expect(items.length).toBeLessThanOrEqual(acked.length + unanswered);
    } finally {
      await second.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('durability under kill -9', () => {
  it('SQLite keeps every acknowledged event', async () => {
    await killDuringWrites({});
  });

  it.skipIf(!pgAvailable)('PostgreSQL keeps every acknowledged event', async () => {
    const schema = `fg_kill_${process.pid}_${randomBytes(3).toString('hex')}`;
    try {
      await killDuringWrites({ DATABASE_URL: DB, FLEETGATE_DB_SCHEMA: schema });
    } finally {
      const c = new pg.Client({ connectionString: DB });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });
});
