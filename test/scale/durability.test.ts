/**
 * An event creation acknowledged with 201 survives kill -9 of the instance that wrote it, with
 * the embedded SQLite store and with PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/spawn-service.js';
import { requireService } from '../helpers/services.js';
import { startTestSandbox, type TestSandbox } from '../sandbox/helpers/sandbox.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const KEY = 'durability-test-key-0123456789';

let emu: TestSandbox;
let accountId: string;
beforeAll(async () => {
  emu = await startTestSandbox();
  accountId = (await emu.api('GET', '/v2/users/me', { token: (await emu.userToken()).access_token })).json
    .account_id;
});
afterAll(() => emu.close());

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
    const acked: string[] = [];
    const post = (i: number) =>
      fetch(`${first.base}/api/video/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ topic: `Durable ${i}`, start_time: '2031-03-01T10:00:00.000Z' }),
      })
        .then(async (r) => {
          if (r.status === 201) acked.push(((await r.json()) as { video_id: string }).video_id);
        })
        .catch(() => undefined);
    for (let i = 0; i < 10; i++) await post(i);
    // Writes in flight when the process dies: only those answered 201 must survive.
    const inflight = Array.from({ length: 10 }, (_, i) => post(100 + i));
    setTimeout(() => first.child.kill('SIGKILL'), 15);
    await Promise.all(inflight);
    await first.stop('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(10);
    const second = await startService(env);
    try {
      const res = await fetch(`${second.base}/api/video/events?limit=500`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      const stored = ((await res.json()) as { items: { video_id: string }[] }).items.map((e) => e.video_id);
      for (const id of acked) expect(stored).toContain(id);
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
