/**
 * The scale-out engine: a `pg.Pool` shared by every instance's store.
 *
 * - Schema: with `opts.schema`, every pooled connection runs `SET search_path TO "<schema>"` as
 *   soon as it is created (Kysely's `onCreateConnection`, awaited before the connection's first
 *   query), and `migrate()` creates the schema when it is missing. Without it, the server's
 *   search_path decides (normally `public`).
 * - Numbers: `bigint` (int8) columns come back from pg as strings by default. This pool gets its
 *   own `TypeOverrides` that parse int8 to a JS number (and refuse values beyond 2^53 rather
 *   than silently rounding them); the process-wide `pg.types` registry is left untouched.
 * - Text: ISO timestamps stay text, as in SQLite. Columns we order or range-filter on compare
 *   with `COLLATE "C"`, so comparisons are bytewise like SQLite's BINARY, whatever the locale.
 * - Locks: `migrate()` under a session advisory lock, the link as a row lock (or a transaction
 *   advisory lock before the first link exists), read-modify-writes `FOR UPDATE`; deliveries
 *   are claimed `FOR UPDATE SKIP LOCKED` (postgres-claim.ts).
 * - Search: a GIN index on `to_tsvector('simple', search_terms)`, queried by word prefixes.
 */
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect as KyselyPostgres,
  sql,
  type Migration,
} from 'kysely';
import pg from 'pg';
import { migrationState, type MigrationState } from '../migration-state.js';
import type { Ddl } from '../migrations.js';
import { LINK_ID, type Tables } from '../tables.js';
import type { Dialect } from './dialect.js';
import { claimPostgres } from './postgres-claim.js';

export interface PostgresOptions {
  /** Schema holding the tables (created by migrate()); default: the server's search_path. */
  schema?: string;
  /** Pool size (pg default: 10). */
  max?: number;
}

/**
 * Advisory lock keys (database-wide, shared by every schema in the database). Distinct from
 * Kysely's own migration lock key (3853314791062309107).
 */
const MIGRATE_LOCK_KEY = 4_622_195_306_581_001;
const FIRST_LINK_LOCK_KEY = 4_622_195_306_581_002;

const ddl: Ddl = {
  int8: 'bigint',
  bool: 'boolean',
  sortText: sql`text collate "C"`,
  bytewise: (column) => sql<string>`${sql.ref(column)} collate "C"`,
  // A sequence: one order for every instance, no ties.
  receiptSeq: (c) => c.notNull().generatedByDefaultAsIdentity(),
  async searchIndex(db) {
    await sql`create index stored_events_search on stored_events using gin (to_tsvector('simple', search_terms))`.execute(
      db,
    );
  },
};

function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} does not fit a JS number`);
  return n;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** A PostgreSQL quoted identifier: any schema name works, none can inject SQL. */
const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class PostgresDialect implements Dialect {
  readonly kind = 'postgres' as const;
  readonly ddl = ddl;
  readonly rowLocks = true;
  readonly claim = claimPostgres;
  readonly db: Kysely<Tables>;
  readonly #schema: string | undefined;

  constructor(connectionString: string, opts: PostgresOptions = {}) {
    this.#schema = opts.schema;
    // Per-pool type parsers: int8 -> number here only, never in the global pg.types registry.
    const types = new pg.TypeOverrides();
    types.setTypeParser(pg.types.builtins.INT8, 'text', parseInt8);
    const pool = new pg.Pool({
      connectionString,
      types,
      ...(opts.max !== undefined ? { max: opts.max } : {}),
    });
    // An idle client that loses its server emits 'error' on the pool; unhandled, that would
    // crash the process. The pool drops the client itself, and the next query reports any
    // lasting outage, so there is nothing more to do here.
    pool.on('error', () => {});
    const setSearchPath =
      opts.schema !== undefined
        ? CompiledQuery.raw(`set search_path to ${quoteIdent(opts.schema)}`)
        : undefined;
    this.db = new Kysely<Tables>({
      dialect: new KyselyPostgres({
        pool,
        ...(setSearchPath
          ? {
              // Awaited by Kysely before the new connection runs anything else. Session-level
              // and outside any transaction, so it holds for the connection's whole life.
              onCreateConnection: async (conn) => {
                await conn.executeQuery(setSearchPath);
              },
            }
          : {}),
      }),
    });
  }

  // READ COMMITTED explicitly: under a stricter server default, a transaction that waited on a
  // row lock (the link, an event) would still see the snapshot from before the holder committed.
  write<T>(fn: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().setIsolationLevel('read committed').execute(fn);
  }

  /**
   * Refresh tokens are single use: two instances refreshing with the same one at once would
   * leave one of them (and, once it saves, everyone) holding a revoked token. So the link row is
   * read `FOR UPDATE`: a second caller blocks until the first commits, then reads the row as the
   * first left it and sees the new token version. Before the first link exists there is no row
   * to lock, so a transaction advisory lock is taken instead and the row read again. Lock order
   * is always row, or advisory then row, so two callers cannot deadlock.
   */
  async lockLink(trx: Kysely<Tables>) {
    const locked = () =>
      trx.selectFrom('link').selectAll().where('id', '=', LINK_ID).forUpdate().executeTakeFirst();
    const row = await locked();
    if (row) return row;
    await sql`select pg_advisory_xact_lock(${sql.lit(FIRST_LINK_LOCK_KEY)})`.execute(trx);
    return locked();
  }

  bool(b: boolean): boolean {
    return b;
  }

  matches(words: string[]) {
    // Words are letters and digits only, so nothing else reaches tsquery's syntax.
    const query = words.map((w) => `${w}:*`).join(' & ');
    return sql<boolean>`to_tsvector('simple', search_terms) @@ to_tsquery('simple', ${query})`;
  }

  receiptSeq() {
    return undefined;
  }

  changeStamp(writes: number) {
    // Other instances write to the same database unseen here: callers' caches must also expire.
    return { stamp: String(writes), exact: false };
  }

  /**
   * Runs the migrations holding a session advisory lock on one connection, and runs the Kysely
   * Migrator on that same connection. Instances starting together thus migrate one after the
   * other: the first creates schema and tables, the rest find nothing to do. (Kysely's own
   * migration lock only covers applying migrations, not the `create ... if not exists` of its
   * bookkeeping tables or of our schema, which race in PostgreSQL.)
   */
  async migrate(migrations: Record<string, Migration>): Promise<void> {
    await this.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${sql.lit(MIGRATE_LOCK_KEY)})`.execute(conn);
      let failure: Error | undefined;
      try {
        if (this.#schema !== undefined)
          await sql`create schema if not exists ${sql.id(this.#schema)}`.execute(conn);
        // Name the schema for Kysely's bookkeeping tables explicitly: its "does the table
        // exist" check looks across every schema, so a kysely_migration table in another
        // schema (say, another gateway's) would otherwise be mistaken for ours.
        const schema = await currentSchema(conn);
        if (!schema) throw new Error('no schema on the search_path exists to migrate into');
        const { error } = await migrator(conn, migrations, schema).migrateToLatest();
        if (error) throw error instanceof Error ? error : new Error('migration failed');
      } catch (err) {
        failure = asError(err);
      }
      try {
        await sql`select pg_advisory_unlock(${sql.lit(MIGRATE_LOCK_KEY)})`.execute(conn);
      } catch (err) {
        // A dead connection has released its session lock anyway; report the first error.
        failure ??= asError(err);
      }
      if (failure !== undefined) throw failure;
    });
  }

  /** Read on one connection, as migrate() runs; a schema not yet created has run nothing. */
  migrationState(migrations: Record<string, Migration>): Promise<MigrationState> {
    return this.db.connection().execute(async (conn) => {
      const schema = await currentSchema(conn);
      if (!schema) return { applied: [], pending: Object.keys(migrations).sort() };
      return migrationState(migrator(conn, migrations, schema));
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

async function currentSchema(conn: Kysely<Tables>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(conn);
  return rows[0]?.schema ?? undefined;
}

const migrator = (conn: Kysely<Tables>, migrations: Record<string, Migration>, schema: string) =>
  new Migrator({
    db: conn,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableSchema: schema,
  });
