/**
 * `fleetgate backup` and `fleetgate restore` on the embedded SQLite store, through the built CLI
 * and services run as `npm start` runs them, against one emulator playing the platform:
 *  - under load: writers create events while the backup is taken; restored into an empty data
 *    dir, the next start serves every event acknowledged before the backup began, the linked
 *    account with its tokens readable (a forced refresh works), each webhook the outbox had not
 *    delivered delivered once and signed with the restored secret, the brand versions, the API
 *    key and a dashboard session; no key is printed;
 *  - refusals: a folder others can read, an existing file, a non-empty data dir, an altered
 *    archive, an archive from a newer release, keys that do not open the tokens; and an archive
 *    from an older release migrated forward.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autolinkOverHttp } from '../../src/gateway/oauth/autolink.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import { Database } from '../../src/store/dialects/sqlite-driver.js';
import { migrations } from '../../src/store/migrations.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { eventually } from '../helpers/build-test-app.js';
import { runCli } from '../helpers/run-cli.js';
import { startService, type Service } from '../helpers/spawn-service.js';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const HOOKS = '/hooks';
let emu: TestEmulator;
let rx: Receiver;
let brandDir: string;
/** Private (0700): where the archives are written and the data dirs live. */
let work: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  rx = await startReceiver();
  brandDir = await copyBrand();
  work = await mkdtemp(path.join(tmpdir(), 'fleetgate-backup-'));
});
afterAll(async () => {
  await rx.close();
  await emu.close();
  await rm(brandDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** A service's settings on a data dir: the emulator as the platform, its own API key generated. */
const envFor = (dataDir: string): Record<string, string> => ({
  FLEETGATE_DATA_DIR: dataDir,
  FLEETGATE_SANDBOX: '0',
  VIDEO_CLIENT_ID: 'sandbox-client',
  VIDEO_CLIENT_SECRET: 'sandbox-secret',
  VIDEO_API_BASE: `${emu.base}/v2`,
  VIDEO_OAUTH_BASE: emu.base,
  BRAND_DIR: brandDir,
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: '200',
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: '1000',
});

/** The platform lets this service's OAuth callback in (its default public URL is localhost). */
function allowCallback(svc: Service): void {
  const port = new URL(svc.base).port;
  emu.options.redirectUris.push(`http://localhost:${port}/api/video/oauth/callback`);
}

async function api(svc: Service, key: string, method: string, p: string, body?: unknown, cookie?: string) {
  const res = await fetch(`${svc.base}${p}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(cookie ? { cookie } : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
}

async function allEventIds(svc: Service, key: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  do {
    const r = await api(svc, key, 'GET', `/api/video/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    for (const e of r.json.items as { video_id: string }[]) ids.add(e.video_id);
    cursor = r.json.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

const brandVersions = async (svc: Service) =>
  (
    (await (await fetch(`${svc.base}/api/brand/versions`)).json()) as { items: { version: string }[] }
  ).items.map((v) => v.version);

const refreshGrants = async () =>
  (await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token as number;

describe('backup and restore on SQLite', () => {
  it('a backup taken under write load, restored elsewhere, holds every acknowledged write and the link', async () => {
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');
    const archive = path.join(work, 'load.tar.gz');
    const a = await startService(envFor(dirA));
    let key = '';
    let subscription = '';
    let cookie = '';
    let versionsA: string[] = [];
    const acked: { id: string; at: number }[] = [];
    let backupStarted = 0;
    let backupEnded = 0;
    let backupRun;
    try {
      allowCallback(a);
      key = readFileSync(path.join(dirA, 'api-key'), 'utf8').trim();
      await autolinkOverHttp({ selfBase: a.base, apiKey: key });
      // Nothing is delivered while A runs: the outbox holds every message at the backup, and
      // attempts are under way (leased by A's worker) when it is taken.
      rx.fail(HOOKS, 1_000_000, 503);
      rx.hold(HOOKS, 8_000);
      const sub = await api(a, key, 'POST', '/api/video/subscriptions', {
        url: rx.url(HOOKS),
        events: ['event.created', 'brand.updated'],
      });
      expect(sub.status, sub.text).toBe(201);
      subscription = sub.json.id;
      rx.secret(HOOKS, sub.json.secret);
      // A second brand version.
      await editJson(brandDir, 'tokens/base.tokens.json', (t) => {
        t.colors.palette.red['300'].$value.hex = '#fca5a6';
      });
      await eventually(async () => expect(await brandVersions(a)).toHaveLength(2), 200, 100);
      versionsA = await brandVersions(a);
      // A dashboard session, kept in the store.
      const login = await fetch(`${a.base}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key }).toString(),
        redirect: 'manual',
      });
      cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/=/);

      let writing = true;
      let failures = 0;
      // A user may write 100 meetings a day (the platform's cap, which the gateway's daily quota
      // keeps): past that every write is refused, so the writers stop short of it. Where the
      // backup took long enough, they reached it before the backup ended.
      const CAP = 90;
      let started = 0;
      const writer = async (w: number) => {
        for (let i = 0; writing && started < CAP; i++) {
          started += 1;
          const r = await api(a, key, 'POST', '/api/video/events', {
            topic: `Under load ${w}-${i}`,
            start_time: '2031-06-01T10:00:00.000Z',
          });
          if (r.status === 201) acked.push({ id: r.json.video_id, at: performance.now() });
          else failures += 1;
        }
      };
      const writers = Promise.all([0, 1, 2, 3].map(writer));
      await eventually(() => expect(acked.length).toBeGreaterThanOrEqual(40), 400, 50);
      backupStarted = performance.now();
      backupRun = await runCli(['backup', archive], envFor(dirA));
      backupEnded = performance.now();
      // A few more after it, then stop.
      const after = acked.length;
      await eventually(() => expect(acked.length).toBeGreaterThanOrEqual(Math.min(after + 10, CAP)), 400, 50);
      writing = false;
      await writers;
      expect(failures).toBe(0);
    } finally {
      await a.stop();
    }
    expect(backupRun.stderr).toBe('');
    expect(backupRun.code).toBe(0);
    expect(backupRun.stdout).toContain(`wrote ${archive}`);
    expect(backupRun.stdout).toContain('a consistent online copy (SQLite backup API)');
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const before = acked.filter((x) => x.at < backupStarted).map((x) => x.id);
    const during = acked.filter((x) => x.at >= backupStarted && x.at <= backupEnded);
    expect(before.length).toBeGreaterThanOrEqual(40);
    // The backup ran while writes were being acknowledged.
    expect(during.length).toBeGreaterThan(0);

    const restored = await runCli(['restore', archive], envFor(dirB));
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${dirB}`);
    expect(restored.stdout).toContain('every sealed value opens with them');
    // Their leases were A's: freed, so B sends them at once instead of waiting them out.
    expect(restored.stdout).toMatch(/^ {2}webhooks +[1-9]\d* delivery attempt\(s\) under way at the backup/m);
    // No key material in what either command printed.
    const secrets = [
      key,
      ...(JSON.parse(readFileSync(path.join(dirA, 'encryption-keys.json'), 'utf8')) as { key: string }[]).map(
        (k) => k.key,
      ),
    ];
    for (const out of [backupRun.stdout, backupRun.stderr, restored.stdout, restored.stderr])
      for (const s of secrets) expect(out).not.toContain(s);
    expect(readFileSync(path.join(dirB, 'api-key'), 'utf8').trim()).toBe(key);
    for (const f of ['fleetgate.db', 'encryption-keys.json', 'api-key'])
      expect(statSync(path.join(dirB, f)).mode & 0o777, f).toBe(0o600);

    rx.fail(HOOKS, 0);
    rx.hold(HOOKS, 0);
    const b = await startService(envFor(dirB));
    try {
      // The link, usable without relinking: its refresh token opens and the platform takes it.
      const grants = await refreshGrants();
      await emu.api('POST', '/_sandbox/tokens/expire');
      const status = await api(b, key, 'GET', '/api/video/status?fresh=1');
      expect(status.status).toBe(200);
      expect(status.json.ok, status.text).toBe(true);
      expect(status.json.account.email).toBeTruthy();
      expect(await refreshGrants()).toBeGreaterThan(grants);
      // Every event acknowledged before the backup began.
      const ids = await allEventIds(b, key);
      for (const id of before) expect(ids.has(id), id).toBe(true);
      // The brand versions, and the dashboard session.
      expect(await brandVersions(b)).toEqual(versionsA);
      expect((await api(b, key, 'GET', '/api/video/status', undefined, cookie)).status).toBe(200);
      // The outbox: each message not delivered at the backup is delivered once, signed with the restored secret.
      await eventually(
        async () => {
          const m = await api(b, key, 'GET', '/api/video/monitor');
          expect(m.json.webhooks.outgoing.deliveries.pending).toBe(0);
        },
        300,
        100,
      );
      const delivered = rx.on(HOOKS).filter((d) => d.answered < 300);
      const byId = new Map<string, number>();
      for (const d of delivered) byId.set(d.id, (byId.get(d.id) ?? 0) + 1);
      expect([...byId.values()].every((n) => n === 1)).toBe(true);
      expect(delivered.every((d) => d.verified)).toBe(true);
      const created = new Set(
        delivered.filter((d) => d.json?.type === 'event.created').map((d) => d.json.data.video_id as string),
      );
      for (const id of before) expect(created.has(id), id).toBe(true);
      expect(delivered.filter((d) => d.json?.type === 'brand.updated')).toHaveLength(1);
      const deliveries = await api(b, key, 'GET', `/api/video/subscriptions/${subscription}`);
      expect(deliveries.status).toBe(200);
    } finally {
      await b.stop();
    }
  }, 240_000);

  it('refuses an open folder, an existing file, a non-empty data dir, an altered or newer archive and keys that do not open the tokens', async () => {
    // A small store of its own: a service started once (the sandbox links its demo account).
    const dir = path.join(work, 'small');
    const svc = await startService({ FLEETGATE_DATA_DIR: dir, BRAND_DIR: brandDir, BRAND_WATCH: '0' });
    await svc.stop();
    const env = { FLEETGATE_DATA_DIR: dir };
    const archive = path.join(work, 'small.tar.gz');

    const open = path.join(work, 'open');
    await mkdir(open);
    chmodSync(open, 0o755);
    const refusedOpen = await runCli(['backup', path.join(open, 'x.tar.gz')], env);
    expect(refusedOpen.code).toBe(1);
    expect(refusedOpen.stderr).toContain(`the folder ${open} can be read by other users (mode 0755)`);
    expect(await readdir(open)).toEqual([]);
    const forced = await runCli(['backup', path.join(open, 'x.tar.gz'), '--force'], env);
    expect(forced.code).toBe(0);
    expect(statSync(path.join(open, 'x.tar.gz')).mode & 0o777).toBe(0o600);
    expect(await readdir(open)).toEqual(['x.tar.gz']);

    expect((await runCli(['backup', archive], env)).code).toBe(0);
    const again = await runCli(['backup', archive], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${archive} already exists; pass --force`);

    // Not into a data dir that holds something, unless --force.
    const full = path.join(work, 'full');
    await mkdir(full, { mode: 0o700 });
    await writeFile(path.join(full, 'fleetgate.db'), 'something else');
    const notEmpty = await runCli(['restore', archive], { FLEETGATE_DATA_DIR: full });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain(`the data dir ${full} is not empty (fleetgate.db)`);
    expect(readFileSync(path.join(full, 'fleetgate.db'), 'utf8')).toBe('something else');
    const replaced = await runCli(['restore', archive, '--force'], { FLEETGATE_DATA_DIR: full });
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    const offline = await runCli(['status', '--offline'], { FLEETGATE_DATA_DIR: full });
    expect(offline.stdout).toMatch(/^ {2}status +linked$/m);

    // An archive whose database was altered after the manifest was written.
    const unpacked = path.join(work, 'unpacked');
    await mkdir(unpacked, { mode: 0o700 });
    await tar.x({ file: archive, cwd: unpacked });
    const db = new Database(path.join(unpacked, 'fleetgate.db'));
    db.prepare(`update link set email = 'someone@else.example'`).run();
    db.close();
    const altered = path.join(work, 'altered.tar.gz');
    await tar.c({ gzip: true, cwd: unpacked, file: altered }, await readdir(unpacked));
    const damaged = await runCli(['restore', altered], { FLEETGATE_DATA_DIR: path.join(work, 'd1') });
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(
      /^fleetgate restore: nothing restored: .*is damaged: fleetgate\.db does not match its checksum/,
    );
    expect(await readdir(path.join(work, 'd1'))).toEqual([]);
    // Not an archive at all.
    await writeFile(path.join(work, 'junk.tar.gz'), randomBytes(4096));
    const junk = await runCli(['restore', path.join(work, 'junk.tar.gz')], {
      FLEETGATE_DATA_DIR: path.join(work, 'd2'),
    });
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('is not a readable backup archive');

    // From a newer release: its database has run a migration this code does not know.
    const newer = new Database(path.join(dir, 'fleetgate.db'));
    newer
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('016_future', new Date().toISOString());
    newer.close();
    const newerArchive = path.join(work, 'newer.tar.gz');
    expect((await runCli(['backup', newerArchive], env)).code).toBe(0);
    const refusedNewer = await runCli(['restore', newerArchive], {
      FLEETGATE_DATA_DIR: path.join(work, 'd3'),
    });
    expect(refusedNewer.code).toBe(1);
    expect(refusedNewer.stderr).toContain(
      'this archive comes from a newer fleetgate: its database has run 016_future, which this version (migrations up to 015_schema_compat) does not know',
    );
    expect(await readdir(path.join(work, 'd3'))).toEqual([]);

    // Keys that do not open the tokens: the data dir's key file replaced by another key.
    const lost = path.join(work, 'lost');
    expect((await runCli(['restore', archive], { FLEETGATE_DATA_DIR: lost })).code).toBe(0);
    await writeFile(
      path.join(lost, 'encryption-keys.json'),
      JSON.stringify([
        { id: 'x', key: randomBytes(32).toString('base64'), createdAt: new Date().toISOString() },
      ]),
    );
    const lostArchive = path.join(work, 'lost.tar.gz');
    const warned = await runCli(['backup', lostArchive], { FLEETGATE_DATA_DIR: lost });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('fleetgate backup: warning: sealed values use key(s)');
    const refusedKeys = await runCli(['restore', lostArchive], { FLEETGATE_DATA_DIR: path.join(work, 'd4') });
    expect(refusedKeys.code).toBe(1);
    expect(refusedKeys.stderr).toContain("the archive's keys do not open");
    expect(refusedKeys.stderr).toContain('link.access_token (default): key');
    const anyway = await runCli(['restore', lostArchive, '--force'], {
      FLEETGATE_DATA_DIR: path.join(work, 'd4'),
    });
    expect(anyway.code).toBe(0);
    expect(anyway.stdout).toContain('do not open (--force): the link needs relinking');
  }, 240_000);

  it('migrates an archive from an older release forward', async () => {
    // A store as the release at migration 012 left it, with one stored event and no keys yet.
    const dir = path.join(work, 'old');
    await mkdir(dir, { mode: 0o700 });
    const dialect = new SqliteDialect(path.join(dir, 'fleetgate.db'));
    const all = migrations(dialect.ddl);
    const migrator = new Migrator({
      db: dialect.db,
      provider: { getMigrations: () => Promise.resolve(all) },
    });
    expect((await migrator.migrateTo('012_daily_usage')).error).toBeUndefined();
    await dialect.db
      .insertInto('stored_events')
      .values({
        video_id: '81234567890',
        topic: 'From an older release',
        kind: 'meeting',
        start_time: '2031-02-01T10:00:00.000Z',
        timezone: null,
        duration: 30,
        agenda: null,
        funnel: null,
        status: 'scheduled',
        registration: 0,
        join_url: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        search_terms: 'from an older release',
      })
      .execute();
    await dialect.close();
    const archive = path.join(work, 'old.tar.gz');
    const made = await runCli(['backup', archive], { FLEETGATE_DATA_DIR: dir });
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('migrations  012_daily_usage (12 applied)');
    const target = path.join(work, 'forward');
    const r = await runCli(['restore', archive], { FLEETGATE_DATA_DIR: target });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const forward = Object.keys(all)
      .sort()
      .filter((n) => n > '012_daily_usage');
    expect(r.stdout).toContain(`012_daily_usage in the archive, migrated forward: ${forward.join(', ')}`);
    expect((await runCli(['migrate'], { FLEETGATE_DATA_DIR: target })).stdout).toContain('up to date');
    const status = await runCli(['status', '--offline', '--json'], { FLEETGATE_DATA_DIR: target });
    expect(JSON.parse(status.stdout)).toMatchObject({ storedEvents: 1, link: null });
    const manifest = JSON.parse(await manifestOf(archive)) as {
      migrations: { latest: string; applied: string[] };
    };
    expect(manifest.migrations.latest).toBe('012_daily_usage');
    expect(manifest.migrations.applied).toHaveLength(12);
  }, 120_000);
});

/** The manifest of an archive, as text. */
async function manifestOf(archive: string): Promise<string> {
  let text = '';
  await tar.t({
    file: archive,
    onReadEntry: (e) => {
      if (e.path === 'manifest.json') e.on('data', (c: Buffer) => (text += c.toString()));
      else e.resume();
    },
  });
  return text;
}
