/**
 * The scale-out store: Kysely over a `pg.Pool`, with the same tables, migrations and semantics
 * as the SQLite adapter, expressed for PostgreSQL.
 *
 * - Schema: with `opts.schema`, every pooled connection runs `SET search_path TO "<schema>"` as
 *   soon as it is created (Kysely's `onCreateConnection`, awaited before the connection's first
 *   query), and `migrate()` creates the schema when it is missing. Without it, the server's
 *   search_path decides (normally `public`).
 * - Numbers: `bigint` (int8) columns come back from pg as strings by default. This pool gets its
 *   own `TypeOverrides` that parse int8 to a JS number (and refuse values beyond 2^53 rather
 *   than silently rounding them); the process-wide `pg.types` registry is left untouched.
 * - Text: ISO timestamps stay text, as in SQLite. Columns we order or range-filter on use
 *   `COLLATE "C"`, so comparisons are bytewise like SQLite's BINARY, whatever the database locale.
 * - Locks: `migrate()` under a session advisory lock, `withLinkLock()` as a row lock (or a
 *   transaction advisory lock before the first link exists). See each method.
 * - Outbox: writes that carry outbox messages write them in their own transaction; deliveries
 *   are claimed `FOR UPDATE SKIP LOCKED` (outbox.ts).
 */
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type Generated,
  type Migration,
} from 'kysely';
import pg from 'pg';
import { migrationState, type MigrationState } from '../migration-state.js';
import { asOutboxDb, outboxMigration, WebhookRepo, withOutbox } from '../outbox-sql.js';
import { asSessionDb, SessionRepo, sessionsMigration } from '../sessions-sql.js';
import type { Emit, OutboxMessage } from '../webhooks.js';
import { claimPostgres } from './outbox.js';
import type {
  EventFilter,
  IdempotentRecord,
  LinkRecord,
  OAuthStateRecord,
  Registration,
  Store,
  StoredEvent,
  WebhookEffects,
} from '../store.js';
import type { SealedValue } from '../store.js';

interface LinkRow {
  id: string;
  mode: string;
  status: string;
  account_id: string;
  user_id: string;
  email: string;
  name: string;
  type: number;
  pmi: number;
  scopes: string;
  webinar_license: boolean;
  access_token: string;
  refresh_token: string | null;
  access_expires_at: number;
  linked_at: string;
  updated_at: string;
  token_version: number;
}
interface StateRow {
  state_hash: string;
  verifier: string;
  browser_hash: string;
  expires_at: number;
}
interface EventRow {
  video_id: string;
  topic: string;
  kind: string;
  start_time: string;
  timezone: string | null;
  duration: number;
  agenda: string | null;
  funnel: string | null;
  status: string;
  registration: boolean;
  join_url: string | null;
  created_at: string;
  updated_at: string;
}
interface RegistrationRow {
  id: string;
  video_id: string;
  email: string;
  first_name: string;
  last_name: string;
  registrant_id: string;
  join_url: string | null;
  created_at: string;
}
interface WebhookRow {
  id: string;
  event: string;
  received_at: string;
  seq: Generated<number>;
}
interface IdempotencyRow {
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}
interface Tables {
  idempotency_keys: IdempotencyRow;
  link: LinkRow;
  oauth_states: StateRow;
  stored_events: EventRow;
  registrations: RegistrationRow;
  webhook_receipts: WebhookRow;
}

/** Text compared bytewise, like SQLite's default BINARY collation. */
const bytewiseText = sql`text collate "C"`;

const MIGRATIONS: Record<string, Migration> = {
  '001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('link')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        // Personal meeting IDs are 10-11 digits: beyond a 32-bit integer.
        .addColumn('pmi', 'bigint', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('webinar_license', 'boolean', (c) => c.notNull())
        .addColumn('access_token', 'text', (c) => c.notNull())
        .addColumn('refresh_token', 'text')
        .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('token_version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oauth_states')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('verifier', 'text', (c) => c.notNull())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stored_events')
        .addColumn('video_id', bytewiseText, (c) => c.primaryKey())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('start_time', bytewiseText, (c) => c.notNull())
        .addColumn('timezone', 'text')
        .addColumn('duration', 'integer', (c) => c.notNull())
        .addColumn('agenda', 'text')
        .addColumn('funnel', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('registration', 'boolean', (c) => c.notNull())
        .addColumn('join_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('registrations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('video_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('registrant_id', 'text', (c) => c.notNull())
        .addColumn('join_url', 'text')
        .addColumn('created_at', bytewiseText, (c) => c.notNull())
        .addUniqueConstraint('registrations_video_email', ['video_id', 'email'])
        .execute();
      await db.schema
        .createTable('webhook_receipts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        // A sequence rather than SQLite's Date.now(): one order for every instance, no ties.
        .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
        .execute();
    },
  },
  '002_idempotency': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '003_webhooks_out': outboxMigration('bigint'),
  // Pruning by age (retention.ts) compares these timestamps bytewise, as the index does.
  '004_receipt_and_idempotency_age_indexes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('webhook_receipts_received_at')
        .on('webhook_receipts')
        .expression(sql`received_at collate "C"`)
        .execute();
      await db.schema
        .createIndex('idempotency_keys_created_at')
        .on('idempotency_keys')
        .expression(sql`created_at collate "C"`)
        .execute();
    },
  },
  '005_dashboard_sessions': sessionsMigration('bigint'),
  // The newest receipts (the monitor, the dashboard, what pruning keeps) without a full scan.
  '006_webhook_receipts_seq_index': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('webhook_receipts_seq').on('webhook_receipts').column('seq').execute();
    },
  },
};

const LINK_ID = 'default';

/**
 * Advisory lock keys (database-wide, shared by every schema in the database). Distinct from
 * Kysely's own migration lock key (3853314791062309107).
 */
const MIGRATE_LOCK_KEY = 4_622_195_306_581_001;
const FIRST_LINK_LOCK_KEY = 4_622_195_306_581_002;

function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} does not fit a JS number`);
  return n;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** A PostgreSQL quoted identifier: any schema name works, none can inject SQL. */
function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function linkFromRow(r: LinkRow): LinkRecord {
  return {
    mode: r.mode === 's2s' ? 's2s' : 'user',
    status: r.status === 'needs_relink' ? 'needs_relink' : 'linked',
    accountId: r.account_id,
    userId: r.user_id,
    email: r.email,
    name: r.name,
    type: r.type,
    pmi: r.pmi,
    scopes: r.scopes ? r.scopes.split(' ') : [],
    webinarLicense: r.webinar_license,
    accessToken: r.access_token,
    refreshToken: r.refresh_token,
    accessExpiresAt: r.access_expires_at,
    linkedAt: r.linked_at,
    updatedAt: r.updated_at,
    tokenVersion: r.token_version,
  };
}

async function upsertLink(db: Kysely<Tables>, link: LinkRecord): Promise<void> {
  const row = linkToRow(link);
  await db
    .insertInto('link')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

function linkToRow(l: LinkRecord): LinkRow {
  return {
    id: LINK_ID,
    mode: l.mode,
    status: l.status,
    account_id: l.accountId,
    user_id: l.userId,
    email: l.email,
    name: l.name,
    type: l.type,
    pmi: l.pmi,
    scopes: l.scopes.join(' '),
    webinar_license: l.webinarLicense,
    access_token: l.accessToken,
    refresh_token: l.refreshToken,
    access_expires_at: l.accessExpiresAt,
    linked_at: l.linkedAt,
    updated_at: l.updatedAt,
    token_version: l.tokenVersion,
  };
}

const eventFromRow = (r: EventRow): StoredEvent => ({
  videoId: r.video_id,
  topic: r.topic,
  kind: 'meeting',
  startTime: r.start_time,
  timezone: r.timezone,
  duration: r.duration,
  agenda: r.agenda,
  funnel: r.funnel,
  status: r.status as StoredEvent['status'],
  registration: r.registration,
  joinUrl: r.join_url,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const eventToRow = (e: StoredEvent): EventRow => ({
  video_id: e.videoId,
  topic: e.topic,
  kind: e.kind,
  start_time: e.startTime,
  timezone: e.timezone,
  duration: e.duration,
  agenda: e.agenda,
  funnel: e.funnel,
  status: e.status,
  registration: e.registration,
  join_url: e.joinUrl,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

/**
 * Read-merge-write of a stored event under its row lock, inside the caller's transaction, so
 * concurrent patches from other instances apply one after the other; undefined when unchanged.
 */
async function patchEvent(
  trx: Kysely<Tables>,
  videoId: string,
  patch: (prev: StoredEvent) => Partial<StoredEvent> | undefined,
): Promise<{ prev: StoredEvent; next: StoredEvent } | undefined> {
  const row = await trx
    .selectFrom('stored_events')
    .selectAll()
    .where('video_id', '=', videoId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  const prev = eventFromRow(row);
  const p = patch(prev);
  if (!p) return undefined;
  const next = { ...prev, ...p, videoId };
  await trx.updateTable('stored_events').set(eventToRow(next)).where('video_id', '=', videoId).execute();
  return { prev, next };
}

/** Inserts the key unless it exists; true when this call claimed it. */
async function claimKey(db: Kysely<Tables>, r: IdempotentRecord): Promise<boolean> {
  const res = await db
    .insertInto('idempotency_keys')
    .values({
      key: r.key,
      request_hash: r.requestHash,
      status: r.status,
      body: r.body,
      created_at: r.createdAt,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A text timestamp compared bytewise, matching the age indexes (migration 004). */
const bytewise = (column: string) => sql<string>`${sql.ref(column)} collate "C"`;

const regFromRow = (r: RegistrationRow): Registration => ({
  id: r.id,
  videoId: r.video_id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  registrantId: r.registrant_id,
  joinUrl: r.join_url,
  createdAt: r.created_at,
});

export interface PostgresStoreOptions {
  /** Schema holding the tables (created by migrate()); default: the server's search_path. */
  schema?: string;
  /** Pool size (pg default: 10). */
  max?: number;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  #writes = 0;
  readonly #db: Kysely<Tables>;
  readonly #schema: string | undefined;
  readonly webhooks: WebhookRepo;
  readonly sessions: SessionRepo;

  constructor(connectionString: string, opts: PostgresStoreOptions = {}) {
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
    this.#db = new Kysely<Tables>({
      dialect: new PostgresDialect({
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
    const outboxDb = asOutboxDb(this.#db);
    this.webhooks = new WebhookRepo(outboxDb, (fn) => outboxDb.transaction().execute(fn), claimPostgres);
    this.sessions = new SessionRepo(asSessionDb(this.#db));
  }

  /** A write and its outbox messages in one transaction. */
  #write<T>(
    fn: (trx: Kysely<Tables>) => Promise<{ result: T; outbox?: OutboxMessage[] | undefined }>,
  ): Promise<T> {
    return this.#counted(withOutbox((f) => this.#db.transaction().execute(f), this.webhooks, fn));
  }

  /** A write's promise, counted in the change stamp once it settles (committed or not: a spare rebuild is harmless). */
  #counted<T>(write: Promise<T>): Promise<T> {
    return write.finally(() => {
      this.#writes += 1;
    });
  }

  changeStamp(): { stamp: string; exact: boolean } {
    // Other instances write to the same database unseen here: callers' caches must also expire.
    return { stamp: String(this.#writes), exact: false };
  }

  /**
   * Runs the migrations holding a session advisory lock on one connection, and runs the Kysely
   * Migrator on that same connection. Instances starting together thus migrate one after the
   * other: the first creates schema and tables, the rest find nothing to do. (Kysely's own
   * migration lock only covers applying migrations, not the `create ... if not exists` of its
   * bookkeeping tables or of our schema, which race in PostgreSQL.)
   */
  async migrate(): Promise<void> {
    await this.#db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${sql.lit(MIGRATE_LOCK_KEY)})`.execute(conn);
      let failure: Error | undefined;
      try {
        if (this.#schema !== undefined) {
          await sql`create schema if not exists ${sql.id(this.#schema)}`.execute(conn);
        }
        // Name the schema for Kysely's bookkeeping tables explicitly: its "does the table
        // exist" check looks across every schema, so a kysely_migration table in another
        // schema (say, another gateway's) would otherwise be mistaken for ours.
        const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
          conn,
        );
        const schema = rows[0]?.schema;
        if (!schema) throw new Error('no schema on the search_path exists to migrate into');
        const migrator = new Migrator({
          db: conn,
          provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
          migrationTableSchema: schema,
        });
        const { error } = await migrator.migrateToLatest();
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
  async migrations(): Promise<MigrationState> {
    return this.#db.connection().execute(async (conn) => {
      const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(conn);
      const schema = rows[0]?.schema;
      if (!schema) return { applied: [], pending: Object.keys(MIGRATIONS).sort() };
      return migrationState(
        new Migrator({
          db: conn,
          provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
          migrationTableSchema: schema,
        }),
      );
    });
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.#db);
  }

  async getLink(): Promise<LinkRecord | undefined> {
    const row = await this.#db.selectFrom('link').selectAll().where('id', '=', LINK_ID).executeTakeFirst();
    return row ? linkFromRow(row) : undefined;
  }

  saveLink(link: LinkRecord, outbox?: OutboxMessage[]): Promise<void> {
    return this.#write(async (trx) => {
      await upsertLink(trx, link);
      return { result: undefined, outbox };
    });
  }

  deleteLink(outbox?: Emit<LinkRecord>): Promise<void> {
    return this.#write(async (trx) => {
      const row = await trx.deleteFrom('link').where('id', '=', LINK_ID).returningAll().executeTakeFirst();
      return { result: undefined, outbox: row && outbox?.(linkFromRow(row)) };
    });
  }

  /**
   * Refresh tokens are single use: two instances refreshing with the same one at once would
   * leave one of them (and, once it saves, everyone) holding a revoked token, and the link
   * would need to be made again. So the read-refresh-write runs in one transaction holding the
   * link row `FOR UPDATE`: a second caller, in this process or another, blocks on its own
   * SELECT until the first commits, then reads the row as the first left it (READ COMMITTED
   * re-reads a row it waited for) and sees the new token version.
   *
   * Before the first link exists there is no row to lock, so first-time linking takes a
   * transaction advisory lock instead and then reads again: a caller that waited there sees
   * the link the first one inserted (and locks that row). Lock order is always row, or
   * advisory then row, so two callers cannot deadlock.
   *
   * The transaction holds a pooled connection and the row lock while `fn` runs: `fn` must not
   * write the link through this store (that would wait on its own lock); return `next`.
   */
  withLinkLock<T>(
    fn: (link: LinkRecord | undefined) => Promise<{ next?: LinkRecord; result: T; outbox?: OutboxMessage[] }>,
  ): Promise<T> {
    // READ COMMITTED explicitly: under a stricter default the second read below would still
    // see the snapshot from before the first linker committed.
    const tx = <R>(f: (trx: Kysely<Tables>) => Promise<R>) =>
      this.#db.transaction().setIsolationLevel('read committed').execute(f);
    return this.#counted(
      withOutbox(tx, this.webhooks, async (trx) => {
        const lockedLink = () =>
          trx.selectFrom('link').selectAll().where('id', '=', LINK_ID).forUpdate().executeTakeFirst();
        let row = await lockedLink();
        if (!row) {
          await sql`select pg_advisory_xact_lock(${sql.lit(FIRST_LINK_LOCK_KEY)})`.execute(trx);
          row = await lockedLink();
        }
        const { next, result, outbox } = await fn(row ? linkFromRow(row) : undefined);
        if (next) await upsertLink(trx, next);
        return { result, outbox };
      }),
    );
  }

  async sealedValues() {
    const link = await this.#db.selectFrom('link').select(['id', 'access_token', 'refresh_token']).execute();
    const states = await this.#db.selectFrom('oauth_states').select(['state_hash', 'verifier']).execute();
    return [
      ...link.flatMap((l) => [
        { table: 'link', id: l.id, column: 'access_token', value: l.access_token },
        ...(l.refresh_token
          ? [{ table: 'link', id: l.id, column: 'refresh_token', value: l.refresh_token }]
          : []),
      ]),
      ...states.map((s) => ({
        table: 'oauth_states',
        id: s.state_hash,
        column: 'verifier',
        value: s.verifier,
      })),
      ...(await this.webhooks.sealedSecrets()),
    ];
  }

  async rewriteSealed(was: SealedValue, value: string): Promise<boolean> {
    // Compare-and-swap on the value read: a write since then (a refresh) is never overwritten.
    let updated: bigint;
    if (was.table === 'link' && (was.column === 'access_token' || was.column === 'refresh_token')) {
      const r = await this.#db
        .updateTable('link')
        .set({ [was.column]: value })
        .where('id', '=', was.id)
        .where(was.column, '=', was.value)
        .executeTakeFirst();
      updated = r.numUpdatedRows;
    } else if (was.table === 'oauth_states' && was.column === 'verifier') {
      const r = await this.#db
        .updateTable('oauth_states')
        .set({ verifier: value })
        .where('state_hash', '=', was.id)
        .where('verifier', '=', was.value)
        .executeTakeFirst();
      updated = r.numUpdatedRows;
    } else if (was.table === 'webhook_subscriptions' && was.column === 'secret') {
      updated = (await this.webhooks.rewriteSecret(was.id, was.value, value)) ? 1n : 0n;
    } else throw new Error(`no sealed column ${was.table}.${was.column}`);
    this.#writes += 1;
    return updated > 0n;
  }

  async putOAuthState(s: OAuthStateRecord): Promise<void> {
    await this.#db.deleteFrom('oauth_states').where('expires_at', '<', Date.now()).execute();
    await this.#db
      .insertInto('oauth_states')
      .values({
        state_hash: s.stateHash,
        verifier: s.verifier,
        browser_hash: s.browserHash,
        expires_at: s.expiresAt,
      })
      .execute();
  }

  async takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | undefined> {
    // DELETE ... RETURNING: of two concurrent takes, only one gets the row.
    const row = await this.#db
      .deleteFrom('oauth_states')
      .where('state_hash', '=', stateHash)
      .returningAll()
      .executeTakeFirst();
    if (!row || row.expires_at < now) return undefined;
    return {
      stateHash: row.state_hash,
      verifier: row.verifier,
      browserHash: row.browser_hash,
      expiresAt: row.expires_at,
    };
  }

  async listEvents(f: EventFilter): Promise<StoredEvent[]> {
    let q = this.#db.selectFrom('stored_events').selectAll();
    if (f.funnel !== undefined) q = q.where('funnel', '=', f.funnel);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.from !== undefined) q = q.where('start_time', '>=', f.from);
    if (f.to !== undefined) q = q.where('start_time', '<=', f.to);
    return (await q.orderBy('start_time').orderBy('video_id').execute()).map(eventFromRow);
  }

  async getEvent(videoId: string): Promise<StoredEvent | undefined> {
    const row = await this.#db
      .selectFrom('stored_events')
      .selectAll()
      .where('video_id', '=', videoId)
      .executeTakeFirst();
    return row ? eventFromRow(row) : undefined;
  }

  insertEvent(e: StoredEvent, outbox?: OutboxMessage[]): Promise<void> {
    return this.#write(async (trx) => {
      await trx.insertInto('stored_events').values(eventToRow(e)).execute();
      return { result: undefined, outbox };
    });
  }

  updateEvent(
    videoId: string,
    patch: Partial<StoredEvent>,
    outbox?: Emit<{ prev: StoredEvent; next: StoredEvent }>,
  ): Promise<StoredEvent | undefined> {
    return this.#write(async (trx) => {
      const changed = await patchEvent(trx, videoId, () => patch);
      return { result: changed?.next, outbox: changed && outbox?.(changed) };
    });
  }

  deleteEvent(videoId: string, outbox?: Emit<StoredEvent>): Promise<boolean> {
    return this.#write(async (trx) => {
      const row = await trx
        .deleteFrom('stored_events')
        .where('video_id', '=', videoId)
        .returningAll()
        .executeTakeFirst();
      await trx.deleteFrom('registrations').where('video_id', '=', videoId).execute();
      return { result: row !== undefined, outbox: row && outbox?.(eventFromRow(row)) };
    });
  }

  addRegistration(r: Registration, outbox?: Emit<Registration>): Promise<Registration> {
    return this.#write(async (trx) => {
      const inserted = await trx
        .insertInto('registrations')
        .values({
          id: r.id,
          video_id: r.videoId,
          email: r.email,
          first_name: r.firstName,
          last_name: r.lastName,
          registrant_id: r.registrantId,
          join_url: r.joinUrl,
          created_at: r.createdAt,
        })
        .onConflict((oc) => oc.columns(['video_id', 'email']).doNothing())
        .executeTakeFirst();
      const row = await trx
        .selectFrom('registrations')
        .selectAll()
        .where('video_id', '=', r.videoId)
        .where('email', '=', r.email)
        .executeTakeFirstOrThrow();
      const saved = regFromRow(row);
      const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
      return { result: saved, outbox: created ? outbox?.(saved) : undefined };
    });
  }

  async listRegistrations(videoId: string): Promise<Registration[]> {
    return (
      await this.#db
        .selectFrom('registrations')
        .selectAll()
        .where('video_id', '=', videoId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map(regFromRow);
  }

  async countRegistrations(): Promise<number> {
    const r = await this.#db
      .selectFrom('registrations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async getIdempotent(key: string): Promise<IdempotentRecord | undefined> {
    const r = await this.#db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return r
      ? { key: r.key, requestHash: r.request_hash, status: r.status, body: r.body, createdAt: r.created_at }
      : undefined;
  }

  putIdempotent(r: IdempotentRecord): Promise<boolean> {
    return claimKey(this.#db, r);
  }

  async finishIdempotent(key: string, status: number, body: string): Promise<void> {
    await this.#db.updateTable('idempotency_keys').set({ status, body }).where('key', '=', key).execute();
  }

  async dropIdempotent(key: string): Promise<void> {
    await this.#db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
  }

  /**
   * A second instance inserting the same claim or receipt waits on the unique index until the
   * first commits (then finds it there) or rolls back (then writes it itself).
   */
  recordWebhook(
    id: string,
    event: string,
    receivedAt: string,
    effects: WebhookEffects = {},
  ): Promise<boolean> {
    return this.#write(async (trx) => {
      if (effects.claim && !(await claimKey(trx, effects.claim))) return { result: false };
      const r = await trx
        .insertInto('webhook_receipts')
        .values({ id, event, received_at: receivedAt })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return { result: false };
      const { change } = effects;
      const changed = change && (await patchEvent(trx, change.videoId, change.patch));
      const announced = (changed && change.outbox?.(changed)) ?? [];
      return { result: true, outbox: [...(effects.outbox ?? []), ...announced] };
    });
  }

  async pruneWebhookReceipts(before: string, limit: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('webhook_receipts')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_receipts')
          .select('id')
          .where(bytewise('received_at'), '<', before)
          // Never the newest, in lastWebhook()'s order.
          .where('id', '<>', (sub) =>
            sub.selectFrom('webhook_receipts').select('id').orderBy('seq', 'desc').limit(1),
          )
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async pruneIdempotent(before: string, limit: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('idempotency_keys')
      .where('key', 'in', (eb) =>
        eb
          .selectFrom('idempotency_keys')
          .select('key')
          .where(bytewise('created_at'), '<', before)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async lastWebhook(): Promise<{ event: string; receivedAt: string } | undefined> {
    const row = await this.#db
      .selectFrom('webhook_receipts')
      .select(['event', 'received_at'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { event: row.event, receivedAt: row.received_at } : undefined;
  }

  async recentWebhooks(limit: number): Promise<{ event: string; receivedAt: string }[]> {
    const rows = await this.#db
      .selectFrom('webhook_receipts')
      .select(['event', 'received_at'])
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ event: r.event, receivedAt: r.received_at }));
  }
}
