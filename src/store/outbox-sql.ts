/**
 * Outgoing webhooks in SQL, for both dialects: the three tables and their migrations, the
 * fan-out that writes a message and one delivery per matching subscription (called inside the
 * store's transaction for the change), and the WebhookStore over those tables. Only claiming
 * differs by dialect (dialects/sqlite-write.ts, dialects/postgres-claim.ts); everything here is
 * plain SQL that both accept. Times we compute with are epoch milliseconds; times we show are ISO text.
 * Finished deliveries and their messages are forgotten by age in batches (pruneDeliveries,
 * called by the retention job), through an index, so a pass costs the same however large the
 * log has grown.
 * With tracing on, each message keeps the `traceparent` of the span that wrote it (read through
 * tracing/current.ts, which loads no OpenTelemetry), so its deliveries' spans can link back.
 */
import { randomBytes } from 'node:crypto';
import type { Expression, ExpressionBuilder, Kysely, Migration, SqlBool } from 'kysely';
import { tracing } from '../tracing/current.js';
import type {
  ClaimedDelivery,
  DeliveryCounts,
  DeliveryLogEntry,
  DeliveryOutcome,
  DeliveryStatus,
  OutboxMessage,
  WebhookStore,
  WebhookSubscription,
} from './webhooks.js';

interface SubscriptionRow {
  id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  secret: string;
  source: string;
  created_at: string;
}
interface MessageRow {
  id: string;
  type: string;
  payload: string;
  created_at: string;
  created_ms: number;
  /** W3C traceparent of the writing span; null when tracing was off (014_outbox_trace_context). */
  traceparent: string | null;
}
interface DeliveryRow {
  id: string;
  message_id: string;
  subscription_id: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  lock_token: string | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  created_ms: number;
  updated_ms: number;
}
export interface OutboxTables {
  webhook_subscriptions: SubscriptionRow;
  webhook_messages: MessageRow;
  webhook_deliveries: DeliveryRow;
}

export type OutboxDb = Kysely<OutboxTables>;

/**
 * The adapters' databases hold these tables among others; Kysely's table map is invariant, so
 * the view onto just these tables is a cast, made here once.
 */
export const asOutboxDb = <DB>(db: Kysely<DB>): OutboxDb => db as unknown as OutboxDb;

/** `int8` is the type for epoch milliseconds in PostgreSQL; SQLite's integer is 64-bit already. */
export function outboxMigration(ms: 'integer' | 'bigint'): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_ms', ms, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', ms, (c) => c.notNull())
        .addColumn('locked_until', ms)
        .addColumn('lock_token', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('last_attempt_at', 'text')
        .addColumn('delivered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_ms', ms, (c) => c.notNull())
        .addColumn('updated_ms', ms, (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_message_subscription', ['message_id', 'subscription_id'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_recent')
        .on('webhook_deliveries')
        .columns(['updated_ms'])
        .execute();
    },
  };
}

/**
 * The index that pruning reads: finished deliveries by their last change. The same DDL on both
 * dialects (no column types); `if not exists` so a store that already has it migrates anyway.
 */
export const outboxPruneIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_deliveries_finished')
      .ifNotExists()
      .on('webhook_deliveries')
      .columns(['status', 'updated_ms'])
      .execute();
  },
};

/** The trace context a message was written in; nullable, so older rows and untraced writes fit. */
export const outboxTraceContextMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webhook_messages').addColumn('traceparent', 'text').execute();
  },
};

/** Deliveries in these states are done with; only they are ever pruned. */
const FINISHED = ['delivered', 'failed'] as const;

/**
 * A message no delivery is left for (none but those of subscription `except`, which is going);
 * served by the deliveries' (message_id, subscription_id) unique index.
 */
const noDeliveryLeft =
  (except?: string) =>
  (eb: ExpressionBuilder<OutboxTables, 'webhook_messages'>): Expression<SqlBool> => {
    let others = eb
      .selectFrom('webhook_deliveries')
      .select('webhook_deliveries.id')
      .whereRef('webhook_deliveries.message_id', '=', 'webhook_messages.id');
    if (except !== undefined) others = others.where('webhook_deliveries.subscription_id', '<>', except);
    return eb.not(eb.exists(others));
  };

const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

function parseEvents(json: string): string[] {
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

const wants = (events: string[], type: string) => events.includes('*') || events.includes(type);

/**
 * The caller's trace context, read before its transaction starts: a transaction may wait its
 * turn behind another caller's (SQLite's write queue), and only the caller's own context is
 * the cause. Undefined (nothing stored) when tracing is off.
 */
const writerTraceparent = (): string | undefined => tracing()?.traceparent();

/**
 * Writes each message with one pending delivery per subscription that wants its type, through
 * `db` (the caller's transaction), with `traceparent` (the writer's trace context) on each
 * message. A message nobody wants is not stored. Returns the number of deliveries created.
 */
export async function writeOutbox(
  db: OutboxDb,
  messages: OutboxMessage[],
  traceparent?: string,
): Promise<number> {
  if (messages.length === 0) return 0;
  const subs = await db.selectFrom('webhook_subscriptions').select(['id', 'events']).execute();
  let created = 0;
  for (const m of messages) {
    const targets = subs.filter((s) => wants(parseEvents(s.events), m.type));
    if (targets.length === 0) continue;
    const ms = Date.parse(m.createdAt);
    await db
      .insertInto('webhook_messages')
      .values({
        id: m.id,
        type: m.type,
        payload: m.payload,
        created_at: m.createdAt,
        created_ms: ms,
        traceparent: traceparent ?? null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await db
      .insertInto('webhook_deliveries')
      .values(
        targets.map((t) => ({
          id: newId('dlv'),
          message_id: m.id,
          subscription_id: t.id,
          status: 'pending',
          attempts: 0,
          next_attempt_at: ms,
          locked_until: null,
          lock_token: null,
          last_status: null,
          last_error: null,
          last_attempt_at: null,
          delivered_at: null,
          created_at: m.createdAt,
          created_ms: ms,
          updated_ms: ms,
        })),
      )
      .onConflict((oc) => oc.columns(['message_id', 'subscription_id']).doNothing())
      .execute();
    created += targets.length;
  }
  return created;
}

/** Deliveries due at `now`: pending, next attempt reached, not leased (or the lease ran out). */
export const dueDeliveries = (db: OutboxDb, now: number) =>
  db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id');

/** Leases up to `limit` due deliveries under `token`, returning their ids; atomic per dialect. */
export type ClaimIds = (
  db: OutboxDb,
  o: { now: number; leaseMs: number; limit: number; token: string },
) => Promise<string[]>;

/** Runs `fn` in a write transaction of the adapter's kind (every write here goes through one). */
export type InTransaction = <T>(fn: (db: OutboxDb) => Promise<T>) => Promise<T>;

/**
 * Runs a change and its outbox messages in one transaction (`tx`, the adapter's kind), then
 * wakes the local worker if deliveries were created.
 */
export async function withOutbox<DB, T>(
  tx: <R>(fn: (db: Kysely<DB>) => Promise<R>) => Promise<R>,
  repo: WebhookRepo,
  fn: (db: Kysely<DB>) => Promise<{ result: T; outbox?: OutboxMessage[] | undefined }>,
): Promise<T> {
  let created = 0;
  const traceparent = writerTraceparent();
  const result = await tx(async (db) => {
    const r = await fn(db);
    created = await writeOutbox(asOutboxDb(db), r.outbox ?? [], traceparent);
    return r.result;
  });
  repo.notify(created);
  return result;
}

const subscriptionFromRow = (r: SubscriptionRow): WebhookSubscription => ({
  id: r.id,
  url: r.url,
  events: parseEvents(r.events),
  secret: r.secret,
  source: r.source === 'env' ? 'env' : 'api',
  createdAt: r.created_at,
});

const asStatus = (s: string): DeliveryStatus => (s === 'delivered' || s === 'failed' ? s : 'pending');

export class WebhookRepo implements WebhookStore {
  readonly #listeners: (() => void)[] = [];

  constructor(
    private readonly db: OutboxDb,
    private readonly inTransaction: InTransaction,
    private readonly claimIds: ClaimIds,
  ) {}

  /** Adapters call this after committing a transaction in which writeOutbox created deliveries. */
  notify(created: number): void {
    if (created > 0) for (const l of this.#listeners) l();
  }

  onEnqueued(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async putSubscription(s: WebhookSubscription): Promise<void> {
    const row: SubscriptionRow = {
      id: s.id,
      url: s.url,
      events: JSON.stringify(s.events),
      secret: s.secret,
      source: s.source,
      created_at: s.createdAt,
    };
    await this.inTransaction((db) =>
      db
        .insertInto('webhook_subscriptions')
        .values(row)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ url: row.url, events: row.events, secret: row.secret }),
        )
        .execute(),
    );
  }

  async getSubscription(id: string): Promise<WebhookSubscription | undefined> {
    const row = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? subscriptionFromRow(row) : undefined;
  }

  async listSubscriptions(): Promise<WebhookSubscription[]> {
    const rows = await this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(subscriptionFromRow);
  }

  deleteSubscription(id: string): Promise<boolean> {
    return this.inTransaction(async (db) => {
      // Its messages that no other subscription still has a delivery of go with it, since
      // pruning only ever looks at the messages of the deliveries it removes.
      await db
        .deleteFrom('webhook_messages')
        .where('id', 'in', (eb) =>
          eb.selectFrom('webhook_deliveries').select('message_id').where('subscription_id', '=', id),
        )
        .where(noDeliveryLeft(id))
        .execute();
      await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute();
      const r = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async enqueue(messages: OutboxMessage[]): Promise<number> {
    const traceparent = writerTraceparent();
    const created = await this.inTransaction((db) => writeOutbox(db, messages, traceparent));
    this.notify(created);
    return created;
  }

  async claimDeliveries(o: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    const token = randomBytes(12).toString('base64url');
    const ids = await this.claimIds(this.db, { ...o, token });
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .select([
        'd.id',
        'd.attempts',
        'd.created_ms',
        'm.id as message_id',
        'm.type',
        'm.payload',
        'm.created_at',
        'm.traceparent',
        's.id as subscription_id',
        's.url',
        's.secret',
      ])
      .where('d.id', 'in', ids)
      .where('d.lock_token', '=', token)
      .orderBy('d.next_attempt_at')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      lockToken: token,
      attempts: r.attempts,
      createdMs: r.created_ms,
      message: { id: r.message_id, type: r.type, payload: r.payload, createdAt: r.created_at },
      subscription: { id: r.subscription_id, url: r.url, secret: r.secret },
      ...(r.traceparent === null ? {} : { traceparent: r.traceparent }),
    }));
  }

  async releaseLeases(): Promise<number> {
    const r = await this.inTransaction((db) =>
      db
        .updateTable('webhook_deliveries')
        .set({ locked_until: null, lock_token: null })
        .where('status', '=', 'pending')
        .where('lock_token', 'is not', null)
        .executeTakeFirst(),
    );
    return Number(r.numUpdatedRows);
  }

  async finishDelivery(id: string, lockToken: string, o: DeliveryOutcome): Promise<boolean> {
    const at = new Date(o.at).toISOString();
    const r = await this.inTransaction((db) =>
      db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: o.status,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: o.nextAttemptAt ?? o.at,
          locked_until: null,
          lock_token: null,
          last_status: o.httpStatus,
          last_error: o.error === null ? null : o.error.slice(0, 300),
          last_attempt_at: at,
          ...(o.status === 'delivered' ? { delivered_at: at } : {}),
          updated_ms: o.at,
        }))
        .where('id', '=', id)
        .where('lock_token', '=', lockToken)
        .executeTakeFirst(),
    );
    return Number(r.numUpdatedRows) > 0;
  }

  async recentDeliveries(o: { limit: number; subscriptionId?: string }): Promise<DeliveryLogEntry[]> {
    let q = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
      .selectAll('d')
      .select('m.type');
    if (o.subscriptionId !== undefined) q = q.where('d.subscription_id', '=', o.subscriptionId);
    const rows = await q.orderBy('d.updated_ms', 'desc').orderBy('d.id', 'desc').limit(o.limit).execute();
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      subscriptionId: r.subscription_id,
      type: r.type,
      status: asStatus(r.status),
      attempts: r.attempts,
      lastStatus: r.last_status,
      lastError: r.last_error,
      lastAttemptAt: r.last_attempt_at,
      deliveredAt: r.delivered_at,
      createdAt: r.created_at,
    }));
  }

  async deliveryCounts(subscriptionId?: string): Promise<DeliveryCounts> {
    let q = this.db
      .selectFrom('webhook_deliveries')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status');
    if (subscriptionId !== undefined) q = q.where('subscription_id', '=', subscriptionId);
    const counts: DeliveryCounts = { pending: 0, delivered: 0, failed: 0 };
    for (const r of await q.execute()) counts[asStatus(r.status)] += Number(r.n);
    return counts;
  }

  async pruneDeliveries(beforeMs: number, limit: number): Promise<number> {
    const gone = await this.inTransaction((db) =>
      db
        .deleteFrom('webhook_deliveries')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', 'in', FINISHED)
            .where('updated_ms', '<', beforeMs)
            .limit(limit),
        )
        .returning('message_id')
        .execute(),
    );
    const messageIds = [...new Set(gone.map((r) => r.message_id))];
    // In a transaction of its own, after the deliveries' one has committed: when two instances
    // prune two deliveries of one message at once, the later of the two checks sees both gone
    // (each check alone, inside its own delete, would still see the other's delivery).
    if (messageIds.length > 0)
      await this.inTransaction((db) =>
        db.deleteFrom('webhook_messages').where('id', 'in', messageIds).where(noDeliveryLeft()).execute(),
      );
    return gone.length;
  }

  /** The sealed signing secrets, for key rotation (Store.sealedValues). */
  async sealedSecrets(): Promise<{ table: string; id: string; column: string; value: string }[]> {
    const rows = await this.db.selectFrom('webhook_subscriptions').select(['id', 'secret']).execute();
    return rows.map((r) => ({ table: 'webhook_subscriptions', id: r.id, column: 'secret', value: r.secret }));
  }

  /** Compare-and-swap: true when the secret was still `from` and is now `to`. */
  async rewriteSecret(id: string, from: string, to: string): Promise<boolean> {
    const r = await this.inTransaction((db) =>
      db
        .updateTable('webhook_subscriptions')
        .set({ secret: to })
        .where('id', '=', id)
        .where('secret', '=', from)
        .executeTakeFirst(),
    );
    return r.numUpdatedRows > 0n;
  }
}
