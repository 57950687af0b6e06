/**
 * `fleetgate backup` and `fleetgate restore` on PostgreSQL, as an operator does it: the database
 * dumped with pg_dump, the keys and manifest with `fleetgate backup` (which says the database is
 * not in its archive); the dump restored with psql into another database, then `fleetgate
 * restore` into an empty data dir (refused until the dump is in place). A service started on it
 * serves the link with its tokens readable (a forced refresh), the stored events, each webhook
 * the outbox had not delivered (once, signed with the restored secret) and the brand versions.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autolinkOverHttp } from '../../src/gateway/oauth/autolink.js';
import { eventually } from '../helpers/build-test-app.js';
import { runCli } from '../helpers/run-cli.js';
import { requireService } from '../helpers/services.js';
import { startService, type Service } from '../helpers/spawn-service.js';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const run = promisify(execFile);
const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
/** PostgreSQL's client tools, as the operator runs them. */
const tools = await Promise.all(
  ['pg_dump', 'psql'].map((t) =>
    run(t, ['--version']).then(
      () => true,
      () => false,
    ),
  ),
);
if (pgAvailable && tools.includes(false)) {
  if (process.env['CI'] === 'true') throw new Error('pg_dump and psql are required in CI');
  console.warn('PostgreSQL backup tests skipped: pg_dump or psql is not installed');
}
const runnable = pgAvailable && !tools.includes(false);

const HOOKS = '/pg-hooks';
const schema = `fg_backup_${process.pid}_${randomBytes(3).toString('hex')}`;
const restoredDb = `fg_restored_${process.pid}_${randomBytes(3).toString('hex')}`;
const restoredUrl = (() => {
  const u = new URL(DB);
  u.pathname = `/${restoredDb}`;
  return u.toString();
})();

let emu: TestEmulator;
let rx: Receiver;
let work: string;
let admin: pg.Client;

beforeAll(async () => {
  if (!runnable) return;
  emu = await startTestEmulator();
  rx = await startReceiver();
  work = await mkdtemp(path.join(tmpdir(), 'fleetgate-pg-backup-'));
  admin = new pg.Client({ connectionString: DB });
  await admin.connect();
});
afterAll(async () => {
  if (!runnable) return;
  await admin.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
  await admin.query(`drop database if exists ${pg.escapeIdentifier(restoredDb)} with (force)`);
  await admin.end();
  await rx.close();
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const envFor = (dataDir: string, databaseUrl: string, dbSchema = schema): Record<string, string> => ({
  FLEETGATE_DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  FLEETGATE_DB_SCHEMA: dbSchema,
  FLEETGATE_SANDBOX: '0',
  VIDEO_CLIENT_ID: 'sandbox-client',
  VIDEO_CLIENT_SECRET: 'sandbox-secret',
  VIDEO_API_BASE: `${emu.base}/v2`,
  VIDEO_OAUTH_BASE: emu.base,
  BRAND_WATCH: '0',
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: '200',
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: '1000',
});

async function api(svc: Service, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${svc.base}${p}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
}

const brandVersions = async (svc: Service) =>
  (
    (await (await fetch(`${svc.base}/api/brand/versions`)).json()) as { items: { version: string }[] }
  ).items.map((v) => v.version);

describe.skipIf(!runnable)('backup and restore on PostgreSQL', () => {
  it('the keys exported beside a pg_dump, restored with psql into another database, bring the link back', async () => {
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');
    const archive = path.join(work, 'keys.tar.gz');
    const dump = path.join(work, 'fleetgate.sql');
    const a = await startService(envFor(dirA, DB));
    let key = '';
    const created: string[] = [];
    let versions: string[] = [];
    try {
      emu.options.redirectUris.push(`http://localhost:${new URL(a.base).port}/api/video/oauth/callback`);
      key = readFileSync(path.join(dirA, 'api-key'), 'utf8').trim();
      await autolinkOverHttp({ selfBase: a.base, apiKey: key });
      rx.fail(HOOKS, 1_000_000, 503);
      const sub = await api(a, key, 'POST', '/api/video/subscriptions', {
        url: rx.url(HOOKS),
        events: ['event.created'],
      });
      expect(sub.status, sub.text).toBe(201);
      rx.secret(HOOKS, sub.json.secret);
      for (let i = 0; i < 12; i++) {
        const r = await api(a, key, 'POST', '/api/video/events', {
          topic: `Kept in PostgreSQL ${i}`,
          start_time: '2031-08-01T10:00:00.000Z',
        });
        expect(r.status, r.text).toBe(201);
        created.push(r.json.video_id);
      }
      versions = await brandVersions(a);

      const backup = await runCli(['backup', archive], envFor(dirA, DB));
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toContain('NOT in the archive');
      expect(backup.stdout).toContain('not the database: back that up with');
      expect(backup.stdout).toContain(`pg_dump --no-owner --schema=${schema}`);
      expect(backup.stdout).toMatch(/stored_events 12\b/);
      expect(backup.stdout).not.toContain(key);
      // The operator's dump of the same moment (the service still running).
      await run('pg_dump', ['--no-owner', `--schema=${schema}`, `--file=${dump}`, DB]);
    } finally {
      await a.stop();
    }

    await admin.query(`create database ${pg.escapeIdentifier(restoredDb)}`);
    // Before the dump is restored there is nothing to check the keys against: nothing is restored.
    const early = await runCli(['restore', archive], envFor(dirB, restoredUrl));
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("has no fleetgate tables: restore the database's dump into it first");
    expect(await readdir(dirB)).toEqual([]);
    await run('psql', ['--quiet', '--set=ON_ERROR_STOP=1', `--file=${dump}`, restoredUrl]);
    const restored = await runCli(['restore', archive], envFor(dirB, restoredUrl));
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('the database restored from its dump, checked against the archive');
    expect(restored.stdout).toContain('every sealed value opens with them');
    expect(restored.stdout).not.toContain(key);

    rx.fail(HOOKS, 0);
    const b = await startService(envFor(dirB, restoredUrl));
    try {
      const grants = (await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token as number;
      await emu.api('POST', '/_sandbox/tokens/expire');
      const status = await api(b, key, 'GET', '/api/video/status?fresh=1');
      expect(status.json.ok, status.text).toBe(true);
      expect((await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token).toBeGreaterThan(
        grants,
      );
      const listed = await api(b, key, 'GET', '/api/video/events?limit=100');
      const ids = (listed.json.items as { video_id: string }[]).map((e) => e.video_id);
      expect(ids).toEqual(expect.arrayContaining(created));
      expect(await brandVersions(b)).toEqual(versions);
      await eventually(
        async () => {
          const m = await api(b, key, 'GET', '/api/video/monitor');
          expect(m.json.webhooks.outgoing.deliveries.pending).toBe(0);
        },
        300,
        100,
      );
      const delivered = rx.on(HOOKS).filter((d) => d.answered < 300);
      expect(delivered.every((d) => d.verified)).toBe(true);
      expect(delivered.map((d) => d.json.data.video_id as string).sort()).toEqual([...created].sort());
      expect(new Set(delivered.map((d) => d.id)).size).toBe(created.length);
    } finally {
      await b.stop();
    }
  }, 180_000);
});
