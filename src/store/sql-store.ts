/**
 * The Store, written once in Kysely for both engines; the dialect (dialects/sqlite.ts,
 * dialects/postgres.ts) supplies transactions, locks, the text index and the schema's types.
 * Every list reads one page along an index (keyset, no OFFSET) and every count is kept, so no
 * read costs more as the tables grow. Writes that announce a change carry their outbox
 * messages into the same transaction (outbox-sql.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  asBrandVersionDb,
  getBrandVersion,
  insertBrandVersion,
  latestBrandVersion,
  listBrandVersions,
} from './brand-versions-sql.js';
import { schemaCheck, type MigrationState, type SchemaCheck } from './migration-state.js';
import { migrations } from './migrations.js';
import { asOutboxDb, WebhookRepo, withOutbox } from './outbox-sql.js';
import { asSessionDb, SessionRepo } from './sessions-sql.js';
import { asDailyUsageDb, DailyUsageRepo } from './daily-usage-sql.js';
import { asLinkHealthDb, listLinkHealth, recordLinkHealth } from './link-health-sql.js';
import type {
  BrandPublishResult,
  BrandVersionRecord,
  BrandVersionSummary,
  EventQuery,
  IdempotentRecord,
  LinkHealthEntry,
  LinkRecord,
  OAuthStateRecord,
  Page,
  Registration,
  RegistrationKey,
  SealedValue,
  Store,
  StoredEvent,
  WebhookEffects,
} from './store.js';
import {
  EVENT_COLUMNS,
  eventFromRow,
  eventToRow,
  LINK_ID,
  linkFromRow,
  linkToRow,
  page,
  REGISTRATIONS,
  regFromRow,
  regToRow,
  type Tables,
} from './tables.js';
import type { Dialect } from './dialects/dialect.js';
import { storeFailureCode } from './store-failure.js';
import { tableCounts } from './table-counts.js';
import type { Emit, OutboxMessage } from './webhooks.js';

/** Most items one page may ask for. */
const MAX_PAGE = 1000;
/** The probe write's size (write-health.ts): about what a few dozen stored events take. */
const PROBE_BYTES = 48 * 1024;
/** Rows per statement in a bulk insert (well under both engines' bound-parameter limits). */
const INSERT_CHUNK = 500;

/** How long a read of the schema's migrations is reused (readiness asks on every probe). */
const SCHEMA_RECHECK_MS = 5_000;

const pageSize = (limit: number) => Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE);

export class SqlStore implements Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly webhooks: WebhookRepo;
  readonly sessions: SessionRepo;
  readonly dailyUsage: DailyUsageRepo;
  readonly #d: Dialect;
  readonly #db: Kysely<Tables>;
  readonly #migrations;
  #writes = 0;
  #schema: { at: number; value: Promise<SchemaCheck> } | undefined;

  constructor(dialect: Dialect) {
    this.#d = dialect;
    this.#db = dialect.db;
    this.kind = dialect.kind;
    this.#migrations = migrations(dialect.ddl);
    this.webhooks = new WebhookRepo(
      asOutboxDb(this.#db),
      (fn) => dialect.write((trx) => fn(asOutboxDb(trx))),
      dialect.claim,
    );
    this.sessions = new SessionRepo(asSessionDb(this.#db));
    this.dailyUsage = new DailyUsageRepo(asDailyUsageDb(this.#db), (fn) =>
      dialect.write((trx) => fn(asDailyUsageDb(trx))),
    );
  }

  /** A write and its outbox messages in one transaction, counted in the change stamp once it settles. */
  #write<T>(
    fn: (trx: Kysely<Tables>) => Promise<{ result: T; outbox?: OutboxMessage[] | undefined }>,
  ): Promise<T> {
    const withHistory = async (trx: Kysely<Tables>) => {
      const r = await fn(trx);
      // Link transitions are kept for the dashboard in the same transaction (link-health-sql.ts).
      await recordLinkHealth(asLinkHealthDb(trx), r.outbox ?? []);
      return r;
    };
    return withOutbox((f) => this.#d.write(f), this.webhooks, withHistory).finally(() => {
      // Committed or not: a spare rebuild of a cached view is harmless.
      this.#writes += 1;
    });
  }

  changeStamp(): { stamp: string; exact: boolean } {
    return this.#d.changeStamp(this.#writes);
  }

  migrate(): Promise<void> {
    return this.#d.migrate(this.#migrations);
  }

  migrations(): Promise<MigrationState> {
    return this.#d.migrationState(this.#migrations);
  }

  schema(): Promise<SchemaCheck> {
    const now = Date.now();
    if (!this.#schema || now - this.#schema.at >= SCHEMA_RECHECK_MS) {
      const known = Object.keys(this.#migrations);
      const value = this.migrations().then((state) => schemaCheck(state, known));
      this.#schema = { at: now, value };
      // A failed read is not kept: the next caller asks again.
      value.catch(() => {
        if (this.#schema?.value === value) this.#schema = undefined;
      });
    }
    return this.#schema.value;
  }

  close(): Promise<void> {
    return this.#d.close();
  }

  tableCounts(): Promise<Record<string, number>> {
    return tableCounts(this.#db, this.kind);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.#db);
  }

  async writeFailure(): Promise<string | undefined> {
    const kind = await this.#d.health.check(() => this.#probeWrite());
    return kind && storeFailureCode(kind);
  }

  /**
   * A write that needs room, leaving nothing behind: a row of PROBE_BYTES inserted and deleted
   * in one committed transaction, which must extend the database and its log as a real write
   * would. It goes in idempotency_keys, so no table is added for it, under a key no request can
   * have ("/" is outside IDEMPOTENCY_KEY_PATTERN), and no other transaction ever sees it.
   */
  async #probeWrite(): Promise<void> {
    const key = `readiness-probe/${randomUUID()}`;
    await this.#d.write(async (trx) => {
      await trx
        .insertInto('idempotency_keys')
        .values({
          key,
          request_hash: '',
          status: 0,
          // Random, so neither engine can compress it away.
          body: randomBytes(PROBE_BYTES).toString('base64'),
          created_at: new Date().toISOString(),
        })
        .execute();
      await trx.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    });
  }

  async getLink(): Promise<LinkRecord | undefined> {
    const row = await this.#db.selectFrom('link').selectAll().where('id', '=', LINK_ID).executeTakeFirst();
    return row ? linkFromRow(row) : undefined;
  }

  async #upsertLink(trx: Kysely<Tables>, link: LinkRecord): Promise<void> {
    const row = linkToRow(link, (b) => this.#d.bool(b));
    await trx
      .insertInto('link')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
  }

  saveLink(link: LinkRecord, outbox?: OutboxMessage[]): Promise<void> {
    return this.#write(async (trx) => {
      await this.#upsertLink(trx, link);
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
   * The transaction holds the link's lock while `fn` runs (dialect.lockLink): `fn` must not write
   * the link through this store (that would wait on its own lock); it returns `next` instead.
   */
  withLinkLock<T>(
    fn: (link: LinkRecord | undefined) => Promise<{ next?: LinkRecord; result: T; outbox?: OutboxMessage[] }>,
  ): Promise<T> {
    return this.#write(async (trx) => {
      const row = await this.#d.lockLink(trx);
      const { next, result, outbox } = await fn(row ? linkFromRow(row) : undefined);
      if (next) await this.#upsertLink(trx, next);
      return { result, outbox };
    });
  }

  linkHealth(limit: number): Promise<LinkHealthEntry[]> {
    return listLinkHealth(asLinkHealthDb(this.#db), limit);
  }

  async sealedValues(): Promise<SealedValue[]> {
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
    // A few expired states go with each new one; the retention job takes any backlog.
    await this.pruneOAuthStates(Date.now(), 100);
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

  async pruneOAuthStates(nowMs: number, limit: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('oauth_states')
      .where('state_hash', 'in', (eb) =>
        eb.selectFrom('oauth_states').select('state_hash').where('expires_at', '<', nowMs).limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async listEvents(q: EventQuery): Promise<Page<StoredEvent>> {
    const limit = pageSize(q.limit);
    const desc = q.order === 'desc';
    let s = this.#db.selectFrom('stored_events').select(EVENT_COLUMNS);
    if (q.funnel !== undefined) s = s.where('funnel', '=', q.funnel);
    if (q.status !== undefined) s = s.where('status', '=', q.status);
    if (q.from !== undefined) s = s.where('start_time', '>=', q.from);
    if (q.to !== undefined) s = s.where('start_time', '<=', q.to);
    const after = q.after;
    if (after)
      s = s.where((eb) =>
        eb(eb.refTuple('start_time', 'video_id'), desc ? '<' : '>', eb.tuple(after.startTime, after.videoId)),
      );
    const dir = desc ? 'desc' : 'asc';
    const rows = await s
      .orderBy('start_time', dir)
      .orderBy('video_id', dir)
      .limit(limit + 1)
      .execute();
    return page(rows, limit, eventFromRow);
  }

  async searchEvents(words: string[], cap: number): Promise<StoredEvent[]> {
    if (words.length === 0) return [];
    const ids = await this.#d.search(words, pageSize(cap));
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom('stored_events')
      .select(EVENT_COLUMNS)
      .where('video_id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.video_id, eventFromRow(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async getEvent(videoId: string): Promise<StoredEvent | undefined> {
    const row = await this.#db
      .selectFrom('stored_events')
      .select(EVENT_COLUMNS)
      .where('video_id', '=', videoId)
      .executeTakeFirst();
    return row ? eventFromRow(row) : undefined;
  }

  #eventRow(e: StoredEvent) {
    return eventToRow(e, (b) => this.#d.bool(b));
  }

  insertEvent(e: StoredEvent, outbox?: OutboxMessage[]): Promise<void> {
    return this.#write(async (trx) => {
      await trx.insertInto('stored_events').values(this.#eventRow(e)).execute();
      return { result: undefined, outbox };
    });
  }

  insertEvents(events: StoredEvent[]): Promise<void> {
    return this.#write(async (trx) => {
      for (let i = 0; i < events.length; i += INSERT_CHUNK) {
        const rows = events.slice(i, i + INSERT_CHUNK).map((e) => this.#eventRow(e));
        await trx.insertInto('stored_events').values(rows).execute();
      }
      return { result: undefined };
    });
  }

  /**
   * Read-merge-write of a stored event inside the caller's write transaction (under its row lock
   * where the engine needs one), so concurrent patches apply one after the other; undefined when
   * there is no such event or the patch changes nothing.
   */
  async #patchEvent(
    trx: Kysely<Tables>,
    videoId: string,
    patch: (prev: StoredEvent) => Partial<StoredEvent> | undefined,
  ): Promise<{ prev: StoredEvent; next: StoredEvent } | undefined> {
    const read = trx.selectFrom('stored_events').select(EVENT_COLUMNS).where('video_id', '=', videoId);
    const row = await (this.#d.rowLocks ? read.forUpdate() : read).executeTakeFirst();
    if (!row) return undefined;
    const prev = eventFromRow(row);
    const p = patch(prev);
    if (!p) return undefined;
    const next = { ...prev, ...p, videoId };
    await trx
      .updateTable('stored_events')
      .set(this.#eventRow(next))
      .where('video_id', '=', videoId)
      .execute();
    return { prev, next };
  }

  updateEvent(
    videoId: string,
    patch: Partial<StoredEvent>,
    outbox?: Emit<{ prev: StoredEvent; next: StoredEvent }>,
  ): Promise<StoredEvent | undefined> {
    return this.#write(async (trx) => {
      const changed = await this.#patchEvent(trx, videoId, () => patch);
      return { result: changed?.next, outbox: changed && outbox?.(changed) };
    });
  }

  deleteEvent(videoId: string, outbox?: Emit<StoredEvent>): Promise<boolean> {
    return this.#write(async (trx) => {
      const row = await trx
        .deleteFrom('stored_events')
        .where('video_id', '=', videoId)
        .returning(EVENT_COLUMNS)
        .executeTakeFirst();
      const gone = await trx.deleteFrom('registrations').where('video_id', '=', videoId).executeTakeFirst();
      await this.#count(trx, -Number(gone.numDeletedRows));
      return { result: row !== undefined, outbox: row && outbox?.(eventFromRow(row)) };
    });
  }

  /** Moves the registrations counter, in the transaction that added or removed them. */
  async #count(trx: Kysely<Tables>, by: number): Promise<void> {
    if (by === 0) return;
    await trx
      .updateTable('counters')
      .set((eb) => ({ value: eb('value', '+', by) }))
      .where('name', '=', REGISTRATIONS)
      .execute();
  }

  addRegistration(r: Registration, outbox?: Emit<Registration>): Promise<Registration> {
    return this.#write(async (trx) => {
      const inserted = await trx
        .insertInto('registrations')
        .values(regToRow(r))
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
      if (created) await this.#count(trx, 1);
      return { result: saved, outbox: created ? outbox?.(saved) : undefined };
    });
  }

  async listRegistrations(
    videoId: string,
    p: { limit: number; after?: RegistrationKey },
  ): Promise<Page<Registration>> {
    const limit = pageSize(p.limit);
    const id = this.#d.ddl.bytewise('id');
    let s = this.#db.selectFrom('registrations').selectAll().where('video_id', '=', videoId);
    const after = p.after;
    if (after)
      s = s.where((eb) => eb(eb.tuple(eb.ref('created_at'), id), '>', eb.tuple(after.createdAt, after.id)));
    const rows = await s
      .orderBy('created_at')
      .orderBy(id)
      .limit(limit + 1)
      .execute();
    return page(rows, limit, regFromRow);
  }

  async countRegistrations(videoId?: string): Promise<number> {
    if (videoId !== undefined) {
      const r = await this.#db
        .selectFrom('registrations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('video_id', '=', videoId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    }
    const r = await this.#db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', REGISTRATIONS)
      .executeTakeFirst();
    return Number(r?.value ?? 0);
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

  async reclaimIdempotent(r: IdempotentRecord, staleBefore: string): Promise<boolean> {
    const res = await this.#db
      .updateTable('idempotency_keys')
      .set({ created_at: r.createdAt, status: r.status, body: r.body })
      .where('key', '=', r.key)
      .where('request_hash', '=', r.requestHash)
      .where('status', '=', 0)
      .where('created_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
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
      const seq = this.#d.receiptSeq();
      const r = await trx
        .insertInto('webhook_receipts')
        .values({ id, event, received_at: receivedAt, ...(seq ? { seq } : {}) })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return { result: false };
      const { change } = effects;
      const changed = change && (await this.#patchEvent(trx, change.videoId, change.patch));
      const announced = (changed && change.outbox?.(changed)) ?? [];
      const dropped = effects.dropLink && (await this.#dropLink(trx, effects.dropLink));
      return { result: true, outbox: [...(effects.outbox ?? []), ...announced, ...(dropped ?? [])] };
    });
  }

  /** Deletes the link if it is the one named; the messages announcing it, if it went. */
  async #dropLink(
    trx: Kysely<Tables>,
    drop: NonNullable<WebhookEffects['dropLink']>,
  ): Promise<OutboxMessage[]> {
    let q = trx.deleteFrom('link').where('id', '=', LINK_ID).where('account_id', '=', drop.accountId);
    // A server-to-server link stands for the whole account, whoever removed the app.
    const userId = drop.userId;
    if (userId !== undefined)
      q = q.where((eb) => eb.or([eb('mode', '=', 's2s'), eb('user_id', '=', userId)]));
    const row = await q.returningAll().executeTakeFirst();
    return row ? drop.outbox(linkFromRow(row)) : [];
  }

  async lastWebhook(): Promise<{ event: string; receivedAt: string } | undefined> {
    return (await this.recentWebhooks(1))[0];
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

  async pruneWebhookReceipts(before: string, limit: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('webhook_receipts')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_receipts')
          .select('id')
          .where(this.#d.ddl.bytewise('received_at'), '<', before)
          // Never the newest, in lastWebhook()'s order (an inequality on seq would tempt the
          // planner onto the seq index, scanning every newer receipt).
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
          .where(this.#d.ddl.bytewise('created_at'), '<', before)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  latestBrandVersion(): Promise<BrandVersionRecord | undefined> {
    return latestBrandVersion(asBrandVersionDb(this.#db));
  }

  getBrandVersion(version: string): Promise<BrandVersionRecord | undefined> {
    return getBrandVersion(asBrandVersionDb(this.#db), version);
  }

  listBrandVersions(p: { limit: number; after?: number }): Promise<Page<BrandVersionSummary>> {
    return listBrandVersions(asBrandVersionDb(this.#db), pageSize(p.limit), p.after);
  }

  publishBrandVersion(
    contentHash: string,
    next: (latest: BrandVersionRecord | undefined) => {
      record: BrandVersionRecord;
      outbox?: OutboxMessage[];
    },
  ): Promise<BrandPublishResult> {
    return this.#write<BrandPublishResult>(async (trx) => {
      const db = asBrandVersionDb(trx);
      const latest = await latestBrandVersion(db);
      if (latest && latest.contentHash === contentHash) return { result: { published: false, latest } };
      const { record, outbox } = next(latest);
      if (await insertBrandVersion(db, record))
        return { result: { published: true, latest: record }, outbox };
      // Another instance published on top of the same latest first (it committed before our
      // insert returned): its version is the latest now, and it made the announcement.
      const winner = await latestBrandVersion(db);
      if (!winner) throw new Error('brand version insert conflicted but no version exists');
      return { result: { published: false, latest: winner } };
    });
  }
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
