/**
 * The store contract against the PostgreSQL adapter, each suite in a fresh random schema that
 * is dropped afterwards, plus what only PostgreSQL has: concurrent migration, schema isolation,
 * cross-instance link locking and local bigint parsing.
 *
 * Server: FLEETGATE_TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test. Without a
 * reachable server the file is skipped with one console line, except under CI=true, where
 * that is a failure.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore, type SqlStore } from './open-store.js';
import { runBrandVersionsContract } from './brand-versions-contract.js';
import { runOutboxContract } from './outbox-contract.js';
import { PostgresDialect } from '../../src/store/dialects/postgres.js';
import { runBackfillContract, runListContract } from './lists-contract.js';
import { expectSerializedLinkLock, runStoreContract, sampleLink } from './store-contract.js';

const DATABASE_URL = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Undefined when the server answers, else why not. */
async function unreachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message || err.name : String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

const reason = await unreachable(DATABASE_URL);
const where = redacted(DATABASE_URL);

if (reason !== undefined && process.env['CI'] === 'true') {
  describe('PostgresStore', () => {
    it('has a PostgreSQL server to test against (required when CI=true)', () => {
      throw new Error(
        `no PostgreSQL server at ${where} (${reason}); CI=true makes this a failure, not a skip`,
      );
    });
  });
} else if (reason !== undefined) {
  console.warn(`postgres tests skipped: no server at ${where} (${reason})`);
  describe.skip('PostgresStore (no server)', () => {
    it('needs a PostgreSQL server', () => {});
  });
} else {
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  admin.on('error', () => {});
  const schemas: string[] = [];
  /** A fresh schema name, dropped after the file; not created (migrate() does that). */
  const freshSchema = (prefix = 'fg_test') => {
    const name = `${prefix}_${randomBytes(5).toString('hex')}`;
    schemas.push(name);
    return name;
  };

  afterAll(async () => {
    for (const s of schemas) await admin.query(`drop schema if exists ${pg.escapeIdentifier(s)} cascade`);
    await admin.end();
  });

  // A name that must be quoted, so identifier quoting in search_path and create schema is tested.
  runStoreContract('postgres', () =>
    Promise.resolve(postgresStore(DATABASE_URL, { schema: freshSchema('fg-Test contract') })),
  );
  runListContract('postgres', () => Promise.resolve(postgresStore(DATABASE_URL, { schema: freshSchema() })));
  runBackfillContract('postgres', () => new PostgresDialect(DATABASE_URL, { schema: freshSchema() }));

  runOutboxContract('postgres', () => {
    const schema = freshSchema();
    return Promise.resolve({
      a: postgresStore(DATABASE_URL, { schema }),
      b: postgresStore(DATABASE_URL, { schema }),
    });
  });

  runBrandVersionsContract('postgres', () => {
    const schema = freshSchema();
    return Promise.resolve({
      a: postgresStore(DATABASE_URL, { schema }),
      b: postgresStore(DATABASE_URL, { schema }),
    });
  });

  describe('PostgresStore', () => {
    it('migrates safely when four instances start at once on a fresh schema', async () => {
      const schema = freshSchema();
      const stores = Array.from({ length: 4 }, () => postgresStore(DATABASE_URL, { schema, max: 2 }));
      try {
        const results = await Promise.allSettled(stores.map((s) => s.migrate()));
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        const q = pg.escapeIdentifier(schema);
        const { rows: done } = await admin.query<{ name: string }>(
          `select name from ${q}.kysely_migration order by name`,
        );
        const state = await stores[0]?.migrations();
        expect(state?.pending).toEqual([]);
        expect(done.map((r) => r.name)).toEqual(state?.applied);
        expect(state?.applied).toContain('009_counters');
        const { rows: tables } = await admin.query<{ table_name: string }>(
          `select table_name from information_schema.tables where table_schema = $1 order by table_name`,
          [schema],
        );
        expect(tables.map((r) => r.table_name)).toEqual([
          'brand_versions',
          'counters',
          'daily_usage',
          'dashboard_sessions',
          'idempotency_keys',
          'kysely_migration',
          'kysely_migration_lock',
          'link',
          'link_health',
          'oauth_states',
          'registrations',
          'schema_compat',
          'stored_events',
          'webhook_deliveries',
          'webhook_messages',
          'webhook_receipts',
          'webhook_subscriptions',
        ]);
        await stores[0]?.saveLink(sampleLink());
        expect(await stores[3]?.getLink()).toEqual(sampleLink());
        await expect(stores[1]?.migrate()).resolves.toBeUndefined();
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    describe('two instances on one schema', () => {
      let a: SqlStore;
      let b: SqlStore;
      beforeAll(async () => {
        const schema = freshSchema();
        a = postgresStore(DATABASE_URL, { schema });
        b = postgresStore(DATABASE_URL, { schema });
        await a.migrate();
        await b.migrate();
      });
      afterAll(async () => {
        await a?.close();
        await b?.close();
      });

      it('serializes withLinkLock across instances before the first link exists', async () => {
        await a.deleteLink();
        await expectSerializedLinkLock(a, b, undefined);
      });

      it('serializes withLinkLock across instances on an existing link', async () => {
        const initial = sampleLink({ tokenVersion: 3 });
        await a.saveLink(initial);
        await expectSerializedLinkLock(a, b, initial);
        await expectSerializedLinkLock(b, a, { ...initial, tokenVersion: 4 });
      });

      it('lets reads through while the lock is held', async () => {
        await a.saveLink(sampleLink());
        let readWhileHeld: unknown;
        await a.withLinkLock(async (link) => {
          readWhileHeld = await b.getLink();
          return { result: link };
        });
        expect(readWhileHeld).toEqual(sampleLink());
      });

      it('hands an OAuth state to exactly one of two concurrent takers', async () => {
        const now = Date.now();
        await a.putOAuthState({
          stateHash: 'race',
          verifier: 'v',
          browserHash: 'b',
          expiresAt: now + 60_000,
        });
        const got = await Promise.all([a.takeOAuthState('race', now), b.takeOAuthState('race', now)]);
        expect(got.filter((s) => s !== undefined)).toHaveLength(1);
      });

      it('dedupes a webhook delivered to both instances at once', async () => {
        const got = await Promise.all([
          a.recordWebhook('wh-race', 'meeting.started', '2026-02-01T10:00:00.000Z'),
          b.recordWebhook('wh-race', 'meeting.started', '2026-02-01T10:00:00.000Z'),
        ]);
        expect(got.sort()).toEqual([false, true]);
      });
    });

    it('keeps stores in different schemas apart', async () => {
      const one = postgresStore(DATABASE_URL, { schema: freshSchema() });
      const two = postgresStore(DATABASE_URL, { schema: freshSchema() });
      try {
        await one.migrate();
        await two.migrate();
        await one.saveLink(sampleLink());
        expect(await one.getLink()).toEqual(sampleLink());
        expect(await two.getLink()).toBeUndefined();
      } finally {
        await one.close();
        await two.close();
      }
    });

    it('without the schema option, uses the connection search_path for tables and bookkeeping', async () => {
      const schema = freshSchema();
      await admin.query(`create schema ${pg.escapeIdentifier(schema)}`);
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const store = postgresStore(url.toString());
      try {
        await store.migrate();
        await store.saveLink(sampleLink());
        const { rows } = await admin.query<{ n: string }>(
          `select count(*) as n from ${pg.escapeIdentifier(schema)}.kysely_migration`,
        );
        expect(rows[0]?.n).toBe(String((await store.migrations()).applied.length));
        const { rows: link } = await admin.query<{ email: string }>(
          `select email from ${pg.escapeIdentifier(schema)}.link`,
        );
        expect(link).toEqual([{ email: sampleLink().email }]);
      } finally {
        await store.close();
      }
    });

    it('stores wide integers as bigint and reads numbers back, without touching pg.types', async () => {
      const schema = freshSchema();
      const store = postgresStore(DATABASE_URL, { schema });
      try {
        await store.migrate();
        const { rows } = await admin.query<{ table_name: string; column_name: string; data_type: string }>(
          `select table_name, column_name, data_type from information_schema.columns
            where table_schema = $1 and data_type = 'bigint' order by table_name, column_name`,
          [schema],
        );
        expect(rows.map((r) => `${r.table_name}.${r.column_name}`)).toEqual([
          'brand_versions.seq',
          'counters.value',
          'dashboard_sessions.expires_at',
          'link.access_expires_at',
          'link.next_refresh_at',
          'link.pmi',
          'link_health.at_ms',
          'oauth_states.expires_at',
          'stored_events.search_seq',
          'webhook_deliveries.created_ms',
          'webhook_deliveries.locked_until',
          'webhook_deliveries.next_attempt_at',
          'webhook_deliveries.updated_ms',
          'webhook_messages.created_ms',
          'webhook_receipts.seq',
        ]);
        const link = sampleLink({ pmi: 99_999_999_999, accessExpiresAt: 8_640_000_000_000 });
        await store.saveLink(link);
        const got = await store.getLink();
        expect(got?.pmi).toBe(99_999_999_999);
        expect(got?.accessExpiresAt).toBe(8_640_000_000_000);
        // The process-wide registry still hands out int8 as strings.
        expect(pg.types.getTypeParser(pg.types.builtins.INT8, 'text')('42')).toBe('42');
        const { rows: raw } = await admin.query<{ pmi: unknown }>(
          `select pmi from ${pg.escapeIdentifier(schema)}.link`,
        );
        expect(raw[0]?.pmi).toBe('99999999999');
      } finally {
        await store.close();
      }
    });
  });
}
