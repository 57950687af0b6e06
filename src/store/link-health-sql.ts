/**
 * The link's health in SQL, for both dialects: migration 013 adds the refresh-failure state to
 * the link row and a small `link_health` table of its transitions. Every `connection.*` outbox
 * message is also written here, in the same transaction as the link change it announces, so the
 * dashboard's history holds each transition once whether or not anyone subscribes to it.
 * Only the newest HISTORY_KEPT rows are kept.
 */
import type { Kysely, Migration } from 'kysely';
import type { LinkHealthEntry } from './store.js';
import type { OutboxMessage } from './webhooks.js';

/** Transitions kept for the dashboard; older ones are deleted as new ones arrive. */
export const HISTORY_KEPT = 50;

export interface LinkHealthRow {
  id: string;
  type: string;
  at: string;
  at_ms: number;
  /** The announced `data` object, as JSON. */
  data: string;
}
export interface LinkHealthTables {
  link_health: LinkHealthRow;
}

/** The adapters' databases hold this table among others (Kysely's table map is invariant). */
export const asLinkHealthDb = <DB>(db: Kysely<DB>): Kysely<LinkHealthTables> =>
  db as unknown as Kysely<LinkHealthTables>;

export function linkHealthMigration(int8: 'integer' | 'bigint'): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // A transient refresh failure is remembered on the link so every instance backs off alike.
      await db.schema
        .alterTable('link')
        .addColumn('refresh_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('link').addColumn('next_refresh_at', int8).execute();
      // 'ok' or 'unreadable': sealed tokens that do not open are announced once, not per call.
      await db.schema
        .alterTable('link')
        .addColumn('health', 'text', (c) => c.notNull().defaultTo('ok'))
        .execute();
      await db.schema
        .createTable('link_health')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('at_ms', int8, (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('link_health_at').on('link_health').columns(['at_ms', 'id']).execute();
    },
  };
}

const isConnection = (m: OutboxMessage) => m.type.startsWith('connection.');

/** Records the `connection.*` messages among `messages` through `db` (the change's transaction). */
export async function recordLinkHealth(
  db: Kysely<LinkHealthTables>,
  messages: OutboxMessage[],
): Promise<void> {
  const rows = messages.filter(isConnection).map((m): LinkHealthRow => {
    const parsed = JSON.parse(m.payload) as { data?: unknown };
    return {
      id: m.id,
      type: m.type,
      at: m.createdAt,
      at_ms: Date.parse(m.createdAt),
      data: JSON.stringify(parsed.data ?? {}),
    };
  });
  if (rows.length === 0) return;
  await db
    .insertInto('link_health')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const oldestKept = await db
    .selectFrom('link_health')
    .select(['at_ms', 'id'])
    .orderBy('at_ms', 'desc')
    .orderBy('id', 'desc')
    .offset(HISTORY_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) await db.deleteFrom('link_health').where('at_ms', '<', oldestKept.at_ms).execute();
}

/** The newest transitions first. */
export async function listLinkHealth(
  db: Kysely<LinkHealthTables>,
  limit: number,
): Promise<LinkHealthEntry[]> {
  const rows = await db
    .selectFrom('link_health')
    .selectAll()
    .orderBy('at_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(Math.trunc(limit), 1), HISTORY_KEPT))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    at: r.at,
    data: JSON.parse(r.data) as Record<string, unknown>,
  }));
}
