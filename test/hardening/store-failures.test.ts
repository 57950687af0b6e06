/**
 * A store that cannot write or cannot be reached answers 503 with Retry-After and a code naming
 * the cause, never 500; readiness says the store cannot write and recovers when it can; and
 * every write that was acknowledged is there afterwards. Real failures through real HTTP:
 * SQLite's own SQLITE_FULL (PRAGMA max_page_count on the service's connection, and a real
 * ENOSPC on a small tmpfs, as root), PostgreSQL's
 * disk_full SQLSTATE (raised by the server), a PostgreSQL restart (pg_terminate_backend of the
 * service's connections mid-write) and the server gone and back (a TCP hop in front of it).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createServer, Socket, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../src/store/create-store.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import { PostgresDialect } from '../../src/store/dialects/postgres.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { storeFailureKind } from '../../src/store/store-failure.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { eventually } from '../helpers/build-test-app.js';
import { freePort } from '../helpers/spawn-service.js';
import { requireService } from '../helpers/services.js';
import { mountSmallDisk } from '../helpers/small-disk.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);

/** An agenda of the largest size, so the disk fills in fewer writes. */
const AGENDA = 'x'.repeat(2000);
const create = (e: GatewayEnv, topic: string) =>
  e.api('POST', '/api/video/events', {
    body: { topic, start_time: '2031-04-01T10:00:00.000Z', agenda: AGENDA },
  });

async function storedTopics(e: GatewayEnv): Promise<string[]> {
  const topics: string[] = [];
  let cursor: string | null = null;
  do {
    const r = await e.api('GET', `/api/video/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status, r.text).toBe(200);
    topics.push(...(r.json.items as { topic: string }[]).map((i) => i.topic));
    cursor = r.json.nextCursor as string | null;
  } while (cursor);
  return topics;
}

const readyz = async (e: GatewayEnv) => {
  const r = await e.api('GET', '/readyz', { key: null });
  return { status: r.status, json: r.json, retryAfter: r.headers.get('retry-after') };
};

/** A 503 of this code in the one shape, with Retry-After, saying nothing of the driver. */
function expectStoreRefusal(r: { status: number; headers: Headers; json: any; text: string }, code: string) {
  expect(r.status, r.text).toBe(503);
  expect(r.json).toEqual({ error: { code, message: expect.any(String) } });
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(r.text).not.toMatch(/SQLITE|sqlite|53100|57P01|terminat|ECONN|pg_|stored_events/);
}

describe('SQLite: the disk fills up', () => {
  let e: GatewayEnv;
  let dialect: SqliteDialect;
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-full-'));
    dialect = new SqliteDialect(sqliteFile(dataDir));
    const store = new SqlStore(dialect);
    await store.migrate();
    e = await startGateway({ dataDir, store });
    await e.link();
  }, 60_000);
  afterAll(() => e.close());

  const pragma = async (text: string) =>
    (await sql<Record<string, number>>`${sql.raw(`pragma ${text}`)}`.execute(dialect.db)).rows[0];
  const totalChanges = async () =>
    (await sql<{ n: number }>`select total_changes() as n`.execute(dialect.db)).rows[0]?.n;

  it('answers 503 storage_full, is not ready until there is room again, and loses nothing acknowledged', async () => {
    // Ready, and a readiness check writes nothing while nothing has failed.
    const before = await totalChanges();
    for (let i = 0; i < 5; i++) expect((await readyz(e)).status).toBe(200);
    expect(await totalChanges()).toBe(before);

    const acked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await create(e, `Before full ${i}`);
      expect(r.status, r.text).toBe(201);
      acked.push(`Before full ${i}`);
    }
    // The database may not grow past the pages it has: some writes still fit, then one does not.
    const pages = (await pragma('page_count'))?.['page_count'];
    expect(pages).toBeGreaterThan(0);
    await pragma(`max_page_count = ${pages}`);
    let refused: Awaited<ReturnType<typeof create>> | undefined;
    let refusedTopic = '';
    for (let i = 0; i < 300 && !refused; i++) {
      const topic = `While filling ${i}`;
      const r = await create(e, topic);
      if (r.status === 201) acked.push(topic);
      else {
        refused = r;
        refusedTopic = topic;
      }
    }
    expect(refused, 'the store never filled up').toBeDefined();
    expectStoreRefusal(refused!, 'storage_full');

    // Not ready while it cannot write, and saying why; reads still answer.
    const full = await readyz(e);
    expect(full.status).toBe(503);
    expect(full.json).toEqual({
      error: {
        code: 'not_ready',
        message: expect.stringMatching(/full/),
        details: { store: 'storage_full' },
      },
    });
    expect((await e.api('GET', '/api/video/events?limit=1')).status).toBe(200);
    expectStoreRefusal(await create(e, 'Still full'), 'storage_full');

    // Room again: readiness finds it by itself (its probe write), and writes are taken.
    await pragma('max_page_count = 1073741823');
    await eventually(async () => expect((await readyz(e)).status).toBe(200), 100, 100);
    expect((await readyz(e)).json).toMatchObject({ status: 'ready', store: 'ok' });
    const after = await create(e, 'After full');
    expect(after.status, after.text).toBe(201);
    acked.push('After full');

    const topics = await storedTopics(e);
    for (const t of acked) expect(topics).toContain(t);
    expect(topics).not.toContain(refusedTopic);
    expect(topics).not.toContain('Still full');
    // The probe left nothing behind.
    const probes = await sql<{
      n: number;
    }>`select count(*) as n from idempotency_keys where key like 'readiness-probe/%'`.execute(dialect.db);
    expect(probes.rows[0]?.n).toBe(0);
  });
});

describe('SQLite: the disk really fills up (ENOSPC on a small tmpfs)', () => {
  const disk = mountSmallDisk('the SQLite full-disk test', 8);
  let e: GatewayEnv;
  beforeAll(async () => {
    if (!disk) return;
    // A folder on it: closing the gateway removes its data dir, which a mount point cannot be.
    const dataDir = path.join(disk.dir, 'data');
    await mkdir(dataDir);
    e = await startGateway({ dataDir });
    await e.link();
  }, 60_000);
  afterAll(async () => {
    disk?.free();
    await e?.close();
    disk?.unmount();
  });

  it.skipIf(!disk)(
    'answers 503 storage_full and keeps every acknowledged event once there is room',
    async () => {
      const acked: string[] = [];
      expect((await create(e, 'Disk before full')).status).toBe(201);
      acked.push('Disk before full');
      disk!.fill();
      // Some writes may still fit in space the database and its log already hold; then one does not.
      let refused: Awaited<ReturnType<typeof create>> | undefined;
      let refusedTopic = '';
      for (let i = 0; i < 2000 && !refused; i++) {
        const topic = `Disk filling ${i}`;
        const r = await create(e, topic);
        if (r.status === 201) acked.push(topic);
        else {
          refused = r;
          refusedTopic = topic;
        }
      }
      expect(refused, 'the disk never filled up').toBeDefined();
      expectStoreRefusal(refused!, 'storage_full');
      expect((await readyz(e)).json).toMatchObject({ error: { details: { store: 'storage_full' } } });
      // The service keeps answering reads.
      expect((await e.api('GET', '/api/video/status')).status).toBe(200);

      disk!.free();
      await eventually(async () => expect((await readyz(e)).status).toBe(200), 100, 100);
      expect((await create(e, 'Disk after full')).status).toBe(201);
      acked.push('Disk after full');
      const topics = await storedTopics(e);
      for (const t of acked) expect(topics).toContain(t);
      expect(topics).not.toContain(refusedTopic);
    },
  );
});

describe('what counts as a storage failure', () => {
  const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('names disk-full, I/O and unreachable-server errors of both engines, and nothing else', () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100'])
      expect(storeFailureKind(err(code)), code).toBe('full');
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'EIO', '58030'])
      expect(storeFailureKind(err(code)), code).toBe('io');
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', 'ECONNREFUSED', 'ECONNRESET'])
      expect(storeFailureKind(err(code)), code).toBe('unavailable');
    expect(storeFailureKind(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(storeFailureKind(new AggregateError([err('ECONNREFUSED')], 'connect failed'))).toBe('unavailable');
    expect(storeFailureKind(new Error('wrapped', { cause: err('SQLITE_FULL') }))).toBe('full');
    for (const code of ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_BUSY', '23505', '42P01', 'ENOENT'])
      expect(storeFailureKind(err(code)), code).toBeUndefined();
    expect(storeFailureKind(new Error('boom'))).toBeUndefined();
  });
});

/** A TCP hop in front of PostgreSQL that can be taken down (the server gone) and brought back. */
class Hop {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  constructor(readonly port: number) {}

  async up(): Promise<void> {
    this.#server = createServer((client) => {
      const upstream = new Socket();
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      upstream.connect(5432, '127.0.0.1', () => {
        client.pipe(upstream);
        upstream.pipe(client);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Every connection cut, and nothing listening: connections are refused. */
  async down(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = undefined;
  }
}

describe.skipIf(!pgAvailable)('PostgreSQL: full, restarted, gone and back', () => {
  const schema = `fg_storefail_${process.pid}_${randomBytes(3).toString('hex')}`;
  const appName = `fg_storefail_${process.pid}_${randomBytes(3).toString('hex')}`;
  let hop: Hop;
  let e: GatewayEnv;
  let admin: pg.Client;
  beforeAll(async () => {
    hop = new Hop(await freePort());
    await hop.up();
    admin = new pg.Client({ connectionString: DB });
    await admin.connect();
    const url = new URL(DB);
    url.host = `127.0.0.1:${hop.port}`;
    url.searchParams.set('application_name', appName);
    const store = new SqlStore(new PostgresDialect(url.toString(), { schema }));
    await store.migrate();
    e = await startGateway({ store, env: { DATABASE_URL: url.toString(), FLEETGATE_DB_SCHEMA: schema } });
    await e.link();
  }, 60_000);
  afterAll(async () => {
    await e?.close();
    await hop?.down();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it('answers 503 storage_full on disk_full (53100), unready until the server has room again', async () => {
    const ok = await create(e, 'PG before full');
    expect(ok.status, ok.text).toBe(201);
    // The server says its disk is full for every write to these tables (the probe's included).
    await admin.query(`create function ${schema}.disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
    for (const table of ['stored_events', 'idempotency_keys'])
      await admin.query(
        `create trigger disk_full before insert on ${schema}.${table} for each row execute function ${schema}.disk_full()`,
      );
    expectStoreRefusal(await create(e, 'PG while full'), 'storage_full');
    const full = await readyz(e);
    expect(full.status).toBe(503);
    expect(full.json.error.details).toEqual({ store: 'storage_full' });
    for (const table of ['stored_events', 'idempotency_keys'])
      await admin.query(`drop trigger disk_full on ${schema}.${table}`);
    await eventually(async () => expect((await readyz(e)).status).toBe(200), 100, 100);
    expect((await create(e, 'PG after full')).status).toBe(201);
    const topics = await storedTopics(e);
    expect(topics).toEqual(expect.arrayContaining(['PG before full', 'PG after full']));
    expect(topics).not.toContain('PG while full');
  });

  it('answers 503 store_unavailable when the server ends the connection mid-write (57P01), then recovers', async () => {
    // The write waits on a lock the test holds, so it is under way when its connection is ended.
    const holder = new pg.Client({ connectionString: DB });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${schema}.stored_events in access exclusive mode`);
      const pending = create(e, 'PG cut off');
      await eventually(async () => {
        const r = await admin.query(
          `select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
          [appName],
        );
        expect(r.rows[0].n).toBeGreaterThan(0);
      });
      const ended = await admin.query(
        'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1) t',
        [appName],
      );
      expect(ended.rows[0].n).toBeGreaterThan(0);
      expectStoreRefusal(await pending, 'store_unavailable');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // The pool connects afresh: writes are taken and readiness is back.
    await eventually(async () => expect((await create(e, 'PG after restart')).status).toBe(201), 40, 100);
    expect((await readyz(e)).status).toBe(200);
    expect(await storedTopics(e)).toContain('PG after restart');
  });

  it('answers 503 store_unavailable while the server is gone (refused), and serves again when it is back', async () => {
    const acked = await create(e, 'PG before down');
    expect(acked.status, acked.text).toBe(201);
    await hop.down();
    try {
      expectStoreRefusal(await create(e, 'PG while down'), 'store_unavailable');
      expectStoreRefusal(await e.api('GET', '/api/video/events?limit=1'), 'store_unavailable');
      const down = await readyz(e);
      expect(down.status).toBe(503);
      expect(down.json.error.code).toBe('not_ready');
    } finally {
      await hop.up();
    }
    await eventually(async () => expect((await readyz(e)).status).toBe(200), 40, 100);
    expect((await create(e, 'PG after down')).status).toBe(201);
    const topics = await storedTopics(e);
    expect(topics).toEqual(expect.arrayContaining(['PG before down', 'PG after down']));
    expect(topics).not.toContain('PG while down');
  });
});
