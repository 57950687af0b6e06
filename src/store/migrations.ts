/**
 * The schema, as one list of migrations for both dialects. What differs (64-bit integers,
 * booleans, bytewise text, the receipt sequence, the text index) comes from the dialect's `Ddl`.
 * A migration's name is what a database records as applied: never rename or reorder them, and
 * never change what an applied one creates; add a new one.
 *
 * Rolling upgrades (docs/operations.md, "Upgrading"): instances of the previous release keep
 * serving while a new one migrates, so a migration only expands (new tables, nullable columns or
 * columns with a default, indexes that are not unique over existing rows); it never drops,
 * renames or narrows what the previous release reads (test/store/migration-rules.test.ts holds
 * each one to that). Removing something is a later contract step, wrapped in `contract()`, once
 * no release still running reads it.
 */
import {
  sql,
  type ColumnDefinitionBuilder,
  type Expression,
  type Kysely,
  type Migration,
  type RawBuilder,
} from 'kysely';
import { brandVersionsMigration } from './brand-versions-sql.js';
import { dailyUsageMigration } from './daily-usage-sql.js';
import { linkHealthMigration } from './link-health-sql.js';
import { outboxMigration, outboxPruneIndexMigration, outboxTraceContextMigration } from './outbox-sql.js';
import { eventTerms } from './search-terms.js';
import { sessionsMigration } from './sessions-sql.js';

export interface Ddl {
  /** 64-bit integers (epoch milliseconds, personal meeting IDs). */
  int8: 'integer' | 'bigint';
  bool: 'integer' | 'boolean';
  /** Text that is ordered and compared bytewise, as SQLite's BINARY collation does. */
  sortText: 'text' | Expression<unknown>;
  /** An expression of `column` compared bytewise (index definitions and queries alike). */
  bytewise: (column: string) => RawBuilder<string>;
  /** webhook_receipts.seq: the order receipts arrived in. */
  receiptSeq: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** Builds the text index over stored_events.search_terms (whose values are filled). */
  searchIndex: (db: Kysely<unknown>) => Promise<void>;
}

/**
 * The oldest code the schema serves when migration 015 records it first: the release before it
 * (release/previous.json), which test/upgrade/two-versions.test.ts runs against this schema.
 */
export const FIRST_OLDEST_CODE = '014_outbox_trace_context';

/**
 * A contract step: `m` removes or changes what code before `oldestCode` (a migration name) reads,
 * so it records that in schema_compat in its own transaction; an instance of older code then
 * refuses to start on the database, and one already running reports not ready
 * (`schema_newer_than_code`), instead of failing on the first query that reads what is gone.
 */
export const contract = (oldestCode: string, m: Migration): Migration => ({
  async up(db: Kysely<unknown>) {
    await m.up(db);
    await sql`update schema_compat set oldest_code = ${oldestCode} where id = 'default'`.execute(db);
  },
});

/** Rows rewritten per statement when a migration fills a new column. */
const BACKFILL_BATCH = 500;

export function migrations(d: Ddl): Record<string, Migration> {
  return {
    '001_initial': initial(d),
    '002_idempotency': idempotency,
    '003_webhooks_out': outboxMigration(d.int8),
    // Pruning by age (retention.ts) reads and deletes by these timestamps.
    '004_receipt_and_idempotency_age_indexes': receiptAndIdempotencyAgeIndexes(d),
    '005_dashboard_sessions': sessionsMigration(d.int8),
    // The newest receipts (the monitor, the dashboard, what pruning keeps) without a full scan.
    '006_webhook_receipts_seq_index': webhookReceiptsSeqIndex,
    // Each list's order and filters, so a page costs the same at 1k events as at 1M.
    '007_list_indexes': listIndexes(d),
    // Search by words through a text index; existing events get their terms here.
    '008_stored_event_search': storedEventSearch(d),
    // registrationsTotal from a counter kept with each write, not a count of the table.
    '009_counters': counters(d),
    // Pruning finished deliveries by age, a batch at a time (retention.ts).
    '010_outbox_prune_index': outboxPruneIndexMigration,
    // Each distinct brand content as a semver version, newest first by seq (brand/versions.ts).
    '011_brand_versions': brandVersionsMigration(d.int8),
    // The gateway's daily use of the platform's quotas, shared by every instance (daily-usage-sql.ts).
    '012_daily_usage': dailyUsageMigration,
    // The link's refresh-failure state and its health history (link-health-sql.ts).
    '013_link_health': linkHealthMigration(d.int8),
    // Each outbox message's writer trace context, for its deliveries' span links (outbox-sql.ts).
    '014_outbox_trace_context': outboxTraceContextMigration,
    // The oldest code this schema serves (migration-state.ts): an older instance sees when a
    // newer release's contract step leaves it behind, and says so instead of failing strangely.
    '015_schema_compat': schemaCompat,
  };
}

/* The migrations written here, in the order of the list above. The rest live with their tables
 * (*-sql.ts). */

const initial = (d: Ddl): Migration => ({
  async up(db: Kysely<unknown>) {
    await createLink(db, d);
    await createOauthStates(db, d);
    await createStoredEvents(db, d);
    await createRegistrations(db, d);
    await createWebhookReceipts(db, d);
  },
});

async function createLink(db: Kysely<unknown>, d: Ddl): Promise<void> {
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
    .addColumn('pmi', d.int8, (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('webinar_license', d.bool, (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('access_expires_at', d.int8, (c) => c.notNull())
    .addColumn('linked_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('token_version', 'integer', (c) => c.notNull())
    .execute();
}

async function createOauthStates(db: Kysely<unknown>, d: Ddl): Promise<void> {
  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('verifier', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', d.int8, (c) => c.notNull())
    .execute();
}

async function createStoredEvents(db: Kysely<unknown>, d: Ddl): Promise<void> {
  await db.schema
    .createTable('stored_events')
    .addColumn('video_id', d.sortText, (c) => c.primaryKey())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('start_time', d.sortText, (c) => c.notNull())
    .addColumn('timezone', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('agenda', 'text')
    .addColumn('funnel', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('registration', d.bool, (c) => c.notNull())
    .addColumn('join_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

async function createRegistrations(db: Kysely<unknown>, d: Ddl): Promise<void> {
  await db.schema
    .createTable('registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('video_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('registrant_id', 'text', (c) => c.notNull())
    .addColumn('join_url', 'text')
    .addColumn('created_at', d.sortText, (c) => c.notNull())
    .addUniqueConstraint('registrations_video_email', ['video_id', 'email'])
    .execute();
}

async function createWebhookReceipts(db: Kysely<unknown>, d: Ddl): Promise<void> {
  await db.schema
    .createTable('webhook_receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('seq', d.int8, d.receiptSeq)
    .execute();
}

const idempotency: Migration = {
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

const receiptAndIdempotencyAgeIndexes = (d: Ddl): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_receipts_received_at')
      .on('webhook_receipts')
      .expression(d.bytewise('received_at'))
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_at')
      .on('idempotency_keys')
      .expression(d.bytewise('created_at'))
      .execute();
  },
});

const webhookReceiptsSeqIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('webhook_receipts_seq').on('webhook_receipts').column('seq').execute();
  },
};

const listIndexes = (d: Ddl): Migration => ({
  async up(db: Kysely<unknown>) {
    const index = (name: string, table: string, columns: ReturnType<typeof sql>) =>
      sql`create index ${sql.id(name)} on ${sql.id(table)} (${columns})`.execute(db);
    await index('stored_events_start', 'stored_events', sql`start_time, video_id`);
    await index('stored_events_funnel_start', 'stored_events', sql`funnel, start_time, video_id`);
    await index('stored_events_status_start', 'stored_events', sql`status, start_time, video_id`);
    await index('stored_events_created', 'stored_events', sql`${d.bytewise('created_at')}, video_id`);
    await index(
      'registrations_video_created',
      'registrations',
      sql`video_id, created_at, ${d.bytewise('id')}`,
    );
    await index('oauth_states_expires_at', 'oauth_states', sql`expires_at`);
  },
});

const storedEventSearch = (d: Ddl): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('stored_events')
      .addColumn('search_terms', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await backfillSearchTerms(db);
    await d.searchIndex(db);
  },
});

/** Fills search_terms of the events stored before migration 008, a batch at a time. */
async function backfillSearchTerms(db: Kysely<unknown>): Promise<void> {
  const events = db as Kysely<{
    stored_events: { video_id: string; topic: string; agenda: string | null; funnel: string | null };
  }>;
  let after = '';
  for (;;) {
    const rows = await events
      .selectFrom('stored_events')
      .select(['video_id', 'topic', 'agenda', 'funnel'])
      .where('video_id', '>', after)
      .orderBy('video_id')
      .limit(BACKFILL_BATCH)
      .execute();
    // One statement per batch (one commit, not one per row).
    if (rows.length > 0) {
      const values = sql.join(rows.map((r) => sql`(${r.video_id}, ${eventTerms(r)})`));
      await sql`update stored_events set search_terms = v.column2 from (values ${values}) as v
              where stored_events.video_id = v.column1`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BACKFILL_BATCH) break;
    after = last.video_id;
  }
}

const counters = (d: Ddl): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', d.int8, (c) => c.notNull())
      .execute();
    await sql`insert into counters (name, value) select 'registrations', count(*) from registrations`.execute(
      db,
    );
  },
});

const schemaCompat: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('schema_compat')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('oldest_code', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into schema_compat (id, oldest_code) values ('default', ${FIRST_OLDEST_CODE})`.execute(
      db,
    );
  },
};
