/**
 * The embedded store: Kysely over better-sqlite3 in WAL mode with synchronous=FULL (an
 * acknowledged write survives a crash), migrations in code, and the link lock as a
 * `BEGIN IMMEDIATE` transaction, which serializes refreshes across processes sharing the file.
 * Writes that carry outbox messages run in such a transaction too (outbox.ts).
 */
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { privateDir, privateFile, tighten } from '../../private-files.js';
import { Database } from './driver.js';
import { cachingDatabase } from './statement-cache.js';
import { Kysely, Migrator, SqliteDialect, sql, type Generated, type Migration } from 'kysely';
import { migrationState, type MigrationState } from '../migration-state.js';
import { asOutboxDb, outboxMigration, WebhookRepo, withOutbox } from '../outbox-sql.js';
import { asSessionDb, SessionRepo, sessionsMigration } from '../sessions-sql.js';
import type { Emit, OutboxMessage } from '../webhooks.js';
import { claimSqlite, immediate } from './outbox.js';
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
  webinar_license: number;
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
  registration: number;
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
        .addColumn('pmi', 'integer', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('webinar_license', 'integer', (c) => c.notNull())
        .addColumn('access_token', 'text', (c) => c.notNull())
        .addColumn('refresh_token', 'text')
        .addColumn('access_expires_at', 'integer', (c) => c.notNull())
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('token_version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oauth_states')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('verifier', 'text', (c) => c.notNull())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stored_events')
        .addColumn('video_id', 'text', (c) => c.primaryKey())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text')
        .addColumn('duration', 'integer', (c) => c.notNull())
        .addColumn('agenda', 'text')
        .addColumn('funnel', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('registration', 'integer', (c) => c.notNull())
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
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('registrations_video_email', ['video_id', 'email'])
        .execute();
      await db.schema
        .createTable('webhook_receipts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .execute();
    },
  },
};

MIGRATIONS['002_idempotency'] = {
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
};

MIGRATIONS['003_webhooks_out'] = outboxMigration('integer');

// Pruning by age (retention.ts) reads and deletes by these timestamps.
MIGRATIONS['004_receipt_and_idempotency_age_indexes'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_receipts_received_at')
      .on('webhook_receipts')
      .column('received_at')
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_at')
      .on('idempotency_keys')
      .column('created_at')
      .execute();
  },
};

MIGRATIONS['005_dashboard_sessions'] = sessionsMigration('integer');

// The newest receipts (the monitor, the dashboard, what pruning keeps) without a full scan.
MIGRATIONS['006_webhook_receipts_seq_index'] = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('webhook_receipts_seq').on('webhook_receipts').column('seq').execute();
  },
};

const LINK_ID = 'default';

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
    webinarLicense: r.webinar_license === 1,
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
    webinar_license: l.webinarLicense ? 1 : 0,
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
  registration: r.registration === 1,
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
  registration: e.registration ? 1 : 0,
  join_url: e.joinUrl,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

/** Read-merge-write of a stored event inside the caller's write transaction; undefined when unchanged. */
async function patchEvent(
  conn: Kysely<Tables>,
  videoId: string,
  patch: (prev: StoredEvent) => Partial<StoredEvent> | undefined,
): Promise<{ prev: StoredEvent; next: StoredEvent } | undefined> {
  const row = await conn
    .selectFrom('stored_events')
    .selectAll()
    .where('video_id', '=', videoId)
    .executeTakeFirst();
  if (!row) return undefined;
  const prev = eventFromRow(row);
  const p = patch(prev);
  if (!p) return undefined;
  const next = { ...prev, ...p, videoId };
  await conn.updateTable('stored_events').set(eventToRow(next)).where('video_id', '=', videoId).execute();
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

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly #raw: BetterSqlite3.Database;
  readonly #db: Kysely<Tables>;
  readonly #file: string;
  readonly webhooks: WebhookRepo;
  readonly sessions: SessionRepo;
  #writes = 0;
  readonly #dataVersion: BetterSqlite3.Statement;

  constructor(file: string) {
    if (file !== ':memory:') {
      // Owner-only: SQLite gives the -wal and -shm files it makes the database file's mode, so
      // the file is made 0600 before SQLite opens it; ones an older version left are tightened.
      privateDir(path.dirname(file));
      privateFile(file);
      for (const side of ['-wal', '-shm', '-journal']) tighten(`${file}${side}`);
    }
    this.#file = file === ':memory:' ? file : path.resolve(file);
    this.#raw = new Database(file);
    this.#raw.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before we answer, so an acknowledged write survives kill -9.
    this.#raw.pragma('synchronous = FULL');
    this.#raw.pragma('busy_timeout = 5000');
    this.#raw.pragma('foreign_keys = ON');
    this.#db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cachingDatabase(this.#raw) }) });
    this.#dataVersion = this.#raw.prepare('pragma data_version').pluck();
    const outboxDb = asOutboxDb(this.#db);
    this.webhooks = new WebhookRepo(
      outboxDb,
      (fn) => immediate(this.#file, outboxDb, fn),
      claimSqlite(this.#file),
    );
    this.sessions = new SessionRepo(asSessionDb(this.#db));
  }

  /** A write and its outbox messages in one `BEGIN IMMEDIATE` transaction. */
  #write<T>(
    fn: (conn: Kysely<Tables>) => Promise<{ result: T; outbox?: OutboxMessage[] | undefined }>,
  ): Promise<T> {
    return withOutbox((f) => immediate(this.#file, this.#db, f), this.webhooks, fn).finally(() => {
      this.#writes += 1;
    });
  }

  changeStamp(): { stamp: string; exact: boolean } {
    // data_version moves only for other connections' commits (the CLI, a second process); ours are counted.
    return { stamp: `${this.#writes}:${String(this.#dataVersion.get())}`, exact: true };
  }

  #migrator(): Migrator {
    return new Migrator({ db: this.#db, provider: { getMigrations: () => Promise.resolve(MIGRATIONS) } });
  }

  async migrate(): Promise<void> {
    const { error } = await this.#migrator().migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('migration failed');
  }

  migrations(): Promise<MigrationState> {
    return migrationState(this.#migrator());
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
    return this.#write(async (conn) => {
      await upsertLink(conn, link);
      return { result: undefined, outbox };
    });
  }

  deleteLink(outbox?: Emit<LinkRecord>): Promise<void> {
    return this.#write(async (conn) => {
      const row = await conn.deleteFrom('link').where('id', '=', LINK_ID).returningAll().executeTakeFirst();
      return { result: undefined, outbox: row && outbox?.(linkFromRow(row)) };
    });
  }

  withLinkLock<T>(
    fn: (link: LinkRecord | undefined) => Promise<{ next?: LinkRecord; result: T; outbox?: OutboxMessage[] }>,
  ): Promise<T> {
    // IMMEDIATE takes the write lock now, so a second process waits here instead of racing.
    return this.#write(async (conn) => {
      const row = await conn.selectFrom('link').selectAll().where('id', '=', LINK_ID).executeTakeFirst();
      const { next, result, outbox } = await fn(row ? linkFromRow(row) : undefined);
      if (next) await upsertLink(conn, next);
      return { result, outbox };
    });
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
    return this.#write(async (conn) => {
      await conn.insertInto('stored_events').values(eventToRow(e)).execute();
      return { result: undefined, outbox };
    });
  }

  updateEvent(
    videoId: string,
    patch: Partial<StoredEvent>,
    outbox?: Emit<{ prev: StoredEvent; next: StoredEvent }>,
  ): Promise<StoredEvent | undefined> {
    // Read-merge-write in one write transaction, so a patch from another process cannot interleave.
    return this.#write(async (conn) => {
      const changed = await patchEvent(conn, videoId, () => patch);
      return { result: changed?.next, outbox: changed && outbox?.(changed) };
    });
  }

  deleteEvent(videoId: string, outbox?: Emit<StoredEvent>): Promise<boolean> {
    return this.#write(async (conn) => {
      const row = await conn
        .deleteFrom('stored_events')
        .where('video_id', '=', videoId)
        .returningAll()
        .executeTakeFirst();
      await conn.deleteFrom('registrations').where('video_id', '=', videoId).execute();
      return { result: row !== undefined, outbox: row && outbox?.(eventFromRow(row)) };
    });
  }

  addRegistration(r: Registration, outbox?: Emit<Registration>): Promise<Registration> {
    return this.#write(async (conn) => {
      const inserted = await conn
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
      const row = await conn
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

  recordWebhook(
    id: string,
    event: string,
    receivedAt: string,
    effects: WebhookEffects = {},
  ): Promise<boolean> {
    const seq = Date.now();
    return this.#write(async (conn) => {
      if (effects.claim && !(await claimKey(conn, effects.claim))) return { result: false };
      const r = await conn
        .insertInto('webhook_receipts')
        .values({ id, event, received_at: receivedAt, seq })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return { result: false };
      const { change } = effects;
      const changed = change && (await patchEvent(conn, change.videoId, change.patch));
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
          .where('received_at', '<', before)
          // Never the newest, in lastWebhook()'s order (an inequality on seq would tempt the
          // planner onto the seq index, scanning every newer receipt).
          .where('id', '!=', (sub) =>
            sub
              .selectFrom('webhook_receipts')
              .select('id')
              .orderBy('seq', 'desc')
              .orderBy(sql`rowid`, 'desc')
              .limit(1),
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
        eb.selectFrom('idempotency_keys').select('key').where('created_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async lastWebhook(): Promise<{ event: string; receivedAt: string } | undefined> {
    const row = await this.#db
      .selectFrom('webhook_receipts')
      .select(['event', 'received_at'])
      .orderBy('seq', 'desc')
      .orderBy(sql`rowid`, 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { event: row.event, receivedAt: row.received_at } : undefined;
  }

  async recentWebhooks(limit: number): Promise<{ event: string; receivedAt: string }[]> {
    const rows = await this.#db
      .selectFrom('webhook_receipts')
      .select(['event', 'received_at'])
      .orderBy('seq', 'desc')
      .orderBy(sql`rowid`, 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ event: r.event, receivedAt: r.received_at }));
  }
}
