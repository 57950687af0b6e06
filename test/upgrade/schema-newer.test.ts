/**
 * An instance whose code is older than its database (a newer release migrated it: a rolling
 * upgrade under way, or this instance rolled back), as the built service and CLI run, on SQLite
 * and PostgreSQL: it starts without migrating anything back or forth, serves, and says so in
 * /readyz, the status report, its log and `fleetgate migrate`; once a contract step raises the
 * oldest code the schema serves past it, readiness is 503 `schema_newer_than_code`, the report
 * is not ok, and a new start is refused with one clear line. The newer release is played by a
 * migration recorded in the database that this code does not know.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/dialects/sqlite-driver.js';
import { eventually } from '../helpers/build-test-app.js';
import { runCli } from '../helpers/run-cli.js';
import { requireService } from '../helpers/services.js';
import { startService } from '../helpers/spawn-service.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const KEY = `schema-test-${randomBytes(24).toString('base64url')}`;
const FUTURE = '016_future_expand';

/** Runs SQL on the store's database beside the service, as another release would. */
interface Side {
  env: Record<string, string>;
  run(sql: string, params?: string[]): Promise<void>;
  names(): Promise<string[]>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function baseEnv(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-schema-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return {
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_API_KEY: KEY,
    // Not linked and no emulator: the platform is not what this test is about.
    FLEETGATE_SANDBOX: '0',
    VIDEO_CLIENT_ID: 'schema-test-client',
    VIDEO_CLIENT_SECRET: 'schema-test-secret',
    VIDEO_API_BASE: 'http://127.0.0.1:9/v2',
    VIDEO_OAUTH_BASE: 'http://127.0.0.1:9',
    BRAND_WATCH: '0',
  };
}

async function sqliteSide(): Promise<Side> {
  const env = await baseEnv();
  const file = path.join(env['FLEETGATE_DATA_DIR'] ?? '', 'fleetgate.db');
  return {
    env,
    run(sql, params = []) {
      const db = new Database(file);
      try {
        db.prepare(sql).run(...params);
        return Promise.resolve();
      } finally {
        db.close();
      }
    },
    names() {
      const db = new Database(file, { readonly: true });
      try {
        const rows = db.prepare('select name from kysely_migration order by name').all() as {
          name: string;
        }[];
        return Promise.resolve(rows.map((r) => r.name));
      } finally {
        db.close();
      }
    },
  };
}

async function postgresSide(): Promise<Side> {
  const env = await baseEnv();
  const schema = `fg_schema_${process.pid}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: DB });
  await client.connect();
  const q = pg.escapeIdentifier(schema);
  cleanups.push(async () => {
    await client.query(`drop schema if exists ${q} cascade`);
    await client.end();
  });
  return {
    env: { ...env, DATABASE_URL: DB, FLEETGATE_DB_SCHEMA: schema },
    async run(sql, params = []) {
      // The statements name tables unqualified, as the service does through its search_path.
      await client.query(`set search_path to ${q}`);
      let n = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
    async names() {
      const { rows } = await client.query<{ name: string }>(
        `select name from ${q}.kysely_migration order by name`,
      );
      return rows.map((r) => r.name);
    },
  };
}

async function olderCodeThanDatabase(side: Side) {
  const migrated = await runCli(['migrate'], side.env);
  expect(migrated.stderr).toBe('');
  expect(migrated.code).toBe(0);
  const known = await side.names();
  expect(known.at(-1)).toBe('015_schema_compat');
  const code = known.at(-1);
  // A newer release has migrated the database with an expand step this code does not know.
  await side.run('insert into kysely_migration (name, timestamp) values (?, ?)', [
    FUTURE,
    new Date().toISOString(),
  ]);

  const svc = await startService(side.env);
  try {
    const ready = await fetch(`${svc.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      store: 'ok',
      schema: { status: 'schema_newer_than_code', code, database: FUTURE, unknownMigrations: [FUTURE] },
    });
    const status = await fetch(`${svc.base}/api/video/status`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(status.status).toBe(200);
    const report = (await status.json()) as { ok: boolean; note: string };
    expect(report.note).toContain('This instance runs older code than the database');
    expect(report.note).toContain(FUTURE);
    expect(svc.output()).toContain('this code is older than the database');
    // Nothing was migrated back (or again): the database's record is as the newer release left it.
    expect(await side.names()).toEqual([...known, FUTURE]);
    const offline = await runCli(['status', '--offline'], side.env);
    expect(offline.stdout).toMatch(
      new RegExp(`^ {2}schema +newer than this code: a newer release has run ${FUTURE}; upgrade$`, 'm'),
    );
    const again = await runCli(['migrate'], side.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`newer than this code: it has run ${FUTURE}`);
    expect(await side.names()).toEqual([...known, FUTURE]);

    // The newer release's contract step: its schema no longer serves this code.
    await side.run(`update schema_compat set oldest_code = ? where id = 'default'`, [FUTURE]);
    await eventually(
      async () => {
        const r = await fetch(`${svc.base}/readyz`);
        expect(r.status).toBe(503);
        expect(await r.json()).toMatchObject({
          error: {
            code: 'not_ready',
            message: expect.stringContaining(`needs code that knows ${FUTURE} or later`),
            details: { store: 'schema_newer_than_code', code, database: FUTURE, unknownMigrations: [FUTURE] },
          },
        });
      },
      100,
      200,
    );
    const left = (await (
      await fetch(`${svc.base}/api/video/status?fresh=1`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { ok: boolean; note: string };
    expect(left.ok).toBe(false);
    expect(left.note).toContain('too old for the database');
  } finally {
    await svc.stop();
  }

  // A new start on it is refused with one clear line, not a stack trace.
  const refused = await startService(side.env).then(
    async (s) => {
      await s.stop();
      return '';
    },
    (err: Error) => err.message,
  );
  expect(refused).toMatch(/service exited with 1/);
  expect(refused).toContain(`fleetgate: the database's schema is newer than this code`);
  expect(refused).toContain(`needs code that knows ${FUTURE} or later`);
  expect(refused).not.toMatch(/^\s+at /m);
  const cli = await runCli(['migrate'], side.env);
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain(`fleetgate migrate: the database's schema is newer than this code`);
  expect(await side.names()).toEqual([...known, FUTURE]);
}

describe('code older than the database', () => {
  it('SQLite: serves and says so, then is not ready once a contract step leaves it behind', async () => {
    const side = await sqliteSide();
    await olderCodeThanDatabase(side);
  });

  it.skipIf(!pgAvailable)(
    'PostgreSQL: serves and says so, then is not ready once a contract step leaves it behind',
    async () => {
      const side = await postgresSide();
      await olderCodeThanDatabase(side);
    },
  );
});
