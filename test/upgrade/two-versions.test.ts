/**
 * A rolling upgrade on PostgreSQL, for real: the previous release (release/previous.json, built
 * from git history by previous-release.ts) serves on a schema while the current build starts on
 * the same schema and migrates it, then both serve side by side, as instances behind one load
 * balancer do halfway through an upgrade. Throughout, on both: reads (stored events, the status
 * report, readiness), writes (event creation, which calls the platform), a token refresh each,
 * and outgoing webhook delivery from one outbox; no request may fail, each instance sees the
 * other's writes, and each webhook is delivered once. The emulator is the platform of both.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autolinkOverHttp } from '../../src/gateway/oauth/autolink.js';
import { migrations } from '../../src/store/migrations.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import { REPO, eventually } from '../helpers/build-test-app.js';
import { requireService } from '../helpers/services.js';
import { startService, type Service } from '../helpers/spawn-service.js';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import {
  checkAgainstDocuments,
  checkListed,
  contractChecksOn,
  recordViolations,
} from '../helpers/contract.js';
import { USER_AGENT } from '../../src/version.js';
import {
  buildPreviousRelease,
  releaseRecord,
  unavailable,
  type PreviousRelease,
} from './previous-release.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const record = releaseRecord();
const missing = await unavailable(record.commit);
if (missing && process.env['CI'] === 'true') throw new Error(`${missing}; CI must provide it`);
if (missing) console.warn(`two-version test skipped: ${missing}`);
const runnable = pgAvailable && !missing;

const KEY = `upgrade-${randomBytes(24).toString('base64url')}`;
const schema = `fg_upgrade_${process.pid}_${randomBytes(3).toString('hex')}`;
const HOOKS = '/upgrade-hooks';

/**
 * The strict contract check holds only this build's requests (they carry its User-Agent): the
 * previous release predates the contract fixes (it probes clips with page_size=1, for one) and
 * sends no User-Agent of its own; what it sends is history, not something this change can fix.
 */
const onlyOurs = contractChecksOn
  ? {
      onPlatformRequest: (req: Parameters<typeof checkListed>[0]) => {
        if (req.userAgent === USER_AGENT)
          recordViolations([...checkAgainstDocuments(req), ...checkListed(req)]);
      },
    }
  : {};

let previous: PreviousRelease;
let emu: TestEmulator;
let rx: Receiver;
let admin: pg.Client;
const started = performance.now();

beforeAll(async () => {
  if (!runnable) return;
  [previous, emu, rx] = await Promise.all([
    buildPreviousRelease(),
    startTestEmulator(onlyOurs),
    startReceiver(),
  ]);
  console.log(
    `[upgrade] previous release ${previous.commit.slice(0, 10)} (${previous.migration}) unpacked and built in ${Math.round(previous.buildMs)} ms with ${previous.packages} packages`,
  );
  admin = new pg.Client({ connectionString: DB });
  await admin.connect();
}, 300_000);
afterAll(async () => {
  if (!runnable) return;
  await admin.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
  await admin.end();
  await rx.close();
  await emu.close();
  await previous.remove();
  console.log(
    `[upgrade] two-version test took ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
  );
});

/** One configuration for both, as instances behind one load balancer share it. */
const env = (): Record<string, string> => ({
  DATABASE_URL: DB,
  FLEETGATE_DB_SCHEMA: schema,
  FLEETGATE_API_KEY: KEY,
  FLEETGATE_ENCRYPTION_KEY: sharedKey,
  FLEETGATE_SANDBOX: '0',
  VIDEO_CLIENT_ID: 'sandbox-client',
  VIDEO_CLIENT_SECRET: 'sandbox-secret',
  VIDEO_API_BASE: `${emu.base}/v2`,
  VIDEO_OAUTH_BASE: emu.base,
  BRAND_DIR: path.join(REPO, 'brand'),
  BRAND_WATCH: '0',
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: '100',
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: '500',
  // This test's own load, not our limits, is what is measured.
  FLEETGATE_RATE_LIMIT_API: '0',
  FLEETGATE_DAILY_QUOTAS: 'meeting_writes_per_user=1000000',
});
const sharedKey = randomBytes(32).toString('base64');

type Name = 'previous' | 'current';
interface Failure {
  instance: Name;
  request: string;
  status: number | string;
  body: string;
}

async function call(svc: Service, method: string, p: string, body?: unknown) {
  const res = await fetch(`${svc.base}${p}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

const applied = async () =>
  (
    await admin.query<{ name: string }>(
      `select name from ${pg.escapeIdentifier(schema)}.kysely_migration order by name`,
    )
  ).rows.map((r) => r.name);

const refreshGrants = async () =>
  (await emu.api('GET', '/_sandbox/stats')).json.tokenGrants.refresh_token as number;

describe.skipIf(!runnable)('a rolling upgrade on one PostgreSQL', () => {
  it('the previous release keeps serving while the current one migrates, then both serve; no request fails', async () => {
    const old = await startService(
      { ...env(), FLEETGATE_DATA_DIR: path.join(previous.dir, 'data') },
      undefined,
      {
        command: previous.command,
        cwd: previous.dir,
      },
    );
    let current: Service | undefined;
    const failures: Failure[] = [];
    const created: { id: string; by: Name }[] = [];
    const writes = { previous: 0, current: 0 };
    let running = true;
    let paused = false;
    let inFlight = 0;
    try {
      emu.options.redirectUris.push(`http://localhost:${new URL(old.base).port}/api/video/oauth/callback`);
      await autolinkOverHttp({ selfBase: old.base, apiKey: KEY });
      const sub = await call(old, 'POST', '/api/video/subscriptions', {
        url: rx.url(HOOKS),
        events: ['event.created'],
      });
      expect(sub.status, sub.text).toBe(201);
      rx.secret(HOOKS, sub.json.secret);
      const beforeUpgrade = await applied();
      expect(beforeUpgrade.at(-1)).toBe(previous.migration);

      /** Checks one answer; a failure is kept with what it said, never thrown (the load goes on). */
      const check = (name: Name, request: string, r: { status: number; text: string }, want: number) => {
        if (r.status !== want)
          failures.push({ instance: name, request, status: r.status, body: r.text.slice(0, 300) });
      };
      const loop = async (name: Name, svc: Service, n: number) => {
        for (let i = 0; running; i++) {
          if (paused) {
            await new Promise((r) => setTimeout(r, 20));
            continue;
          }
          inFlight += 1;
          try {
            const w = await call(svc, 'POST', '/api/video/events', {
              topic: `Rolling ${name} ${n}-${i}`,
              start_time: '2031-09-01T10:00:00.000Z',
            });
            check(name, 'POST /api/video/events', w, 201);
            if (w.status === 201) {
              created.push({ id: w.json.video_id as string, by: name });
              writes[name] += 1;
            }
            check(name, 'GET /api/video/events', await call(svc, 'GET', '/api/video/events?limit=20'), 200);
            check(name, 'GET /api/video/status', await call(svc, 'GET', '/api/video/status'), 200);
            check(name, 'GET /readyz', await call(svc, 'GET', '/readyz'), 200);
          } catch (err) {
            failures.push({ instance: name, request: 'any', status: 'network', body: String(err) });
          } finally {
            inFlight -= 1;
          }
        }
      };
      const loops = [loop('previous', old, 0), loop('previous', old, 1)];
      await eventually(() => expect(writes.previous).toBeGreaterThanOrEqual(10), 400, 50);

      // The current build starts on the same schema and migrates it while the previous one serves.
      const writesBefore = writes.previous;
      current = await startService({ ...env(), FLEETGATE_DATA_DIR: path.join(previous.dir, 'data-current') });
      const afterUpgrade = await applied();
      const known = Object.keys(migrations(new SqliteDialect(':memory:').ddl)).sort();
      expect(afterUpgrade).toEqual(known);
      expect(afterUpgrade.slice(0, beforeUpgrade.length)).toEqual(beforeUpgrade);
      console.log(
        `[upgrade] migrated while the previous release served: ${afterUpgrade.slice(beforeUpgrade.length).join(', ') || 'none (no migration since that release)'}`,
      );
      const cur = current;
      loops.push(loop('current', cur, 0), loop('current', cur, 1));
      await eventually(
        () => {
          expect(writes.current).toBeGreaterThanOrEqual(10);
          expect(writes.previous).toBeGreaterThanOrEqual(writesBefore + 10);
        },
        600,
        50,
      );

      // A token refresh by each: the platform ends the access token early and the next write on
      // that instance renews it (one refresh grant); the other instance then takes the renewed
      // token up from the store (no grant), as it would any token refreshed elsewhere.
      paused = true;
      await eventually(() => expect(inFlight).toBe(0), 400, 10);
      const write = async (name: Name, svc: Service, topic: string) => {
        const w = await call(svc, 'POST', '/api/video/events', {
          topic,
          start_time: '2031-09-02T10:00:00.000Z',
        });
        check(name, `POST /api/video/events (${topic})`, w, 201);
        if (w.status === 201) created.push({ id: w.json.video_id as string, by: name });
      };
      for (const [name, svc, other, otherSvc] of [
        ['previous', old, 'current', cur],
        ['current', cur, 'previous', old],
      ] as const) {
        const grants = await refreshGrants();
        await emu.api('POST', '/_sandbox/tokens/expire');
        await write(name, svc, `Renewed by the ${name} release`);
        expect(await refreshGrants(), `a refresh by the ${name} release`).toBe(grants + 1);
        await write(other, otherSvc, `Taken up by the ${other} release`);
        expect(await refreshGrants()).toBe(grants + 1);
      }
      expect(failures).toEqual([]);
      paused = false;
      const settled = { ...writes };
      await eventually(
        () => {
          expect(writes.previous).toBeGreaterThanOrEqual(settled.previous + 5);
          expect(writes.current).toBeGreaterThanOrEqual(settled.current + 5);
        },
        600,
        50,
      );
      running = false;
      await Promise.all(loops);

      expect(failures).toEqual([]);
      console.log(
        `[upgrade] writes: ${writes.previous} by the previous release, ${writes.current} by the current one`,
      );
      // Each sees the other's writes.
      for (const svc of [old, cur]) {
        const seen = new Set<string>();
        let cursor: string | undefined;
        do {
          const r = await call(svc, 'GET', `/api/video/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
          expect(r.status).toBe(200);
          for (const e of r.json.items as { video_id: string }[]) seen.add(e.video_id);
          cursor = r.json.nextCursor ?? undefined;
        } while (cursor);
        for (const c of created) expect(seen.has(c.id), `${c.by}'s ${c.id}`).toBe(true);
      }
      // One outbox, two delivery workers: each event announced once, signed.
      await eventually(
        () => {
          const got = new Set(
            rx
              .on(HOOKS)
              .filter((d) => d.answered < 300)
              .map((d) => d.json.data.video_id as string),
          );
          for (const c of created) expect(got.has(c.id)).toBe(true);
        },
        600,
        50,
      );
      const delivered = rx.on(HOOKS).filter((d) => d.answered < 300);
      expect(delivered.every((d) => d.verified)).toBe(true);
      expect(new Set(delivered.map((d) => d.id)).size).toBe(delivered.length);
      expect(delivered.length).toBe(created.length);
      const ready = await call(cur, 'GET', '/readyz');
      expect(ready.json.schema).toMatchObject({ status: 'current', database: afterUpgrade.at(-1) });
    } finally {
      running = false;
      const codes = await Promise.all([old.stop(), current?.stop()]);
      expect(codes[0]).toBe(0);
    }
  }, 300_000);
});
