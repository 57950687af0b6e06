/**
 * Dashboard sessions in SQL, shared by both adapters: the table, its migration and the
 * SessionStore over it. The table stays small: every sign-in deletes expired sessions and those
 * of another API key, and an instance starting with a new key deletes the old key's.
 */
import type { Kysely, Migration } from 'kysely';
import type { DashboardSessionRecord, SessionStore } from './sessions.js';

interface SessionRow {
  id: string;
  key_id: string;
  expires_at: number;
  created_at: string;
}
export interface SessionTables {
  dashboard_sessions: SessionRow;
}

/** `int8` is the type for epoch milliseconds in PostgreSQL; SQLite's integer is 64-bit already. */
export function sessionsMigration(ms: 'integer' | 'bigint'): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dashboard_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', ms, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('dashboard_sessions_expires_at')
        .on('dashboard_sessions')
        .column('expires_at')
        .execute();
    },
  };
}

/** The adapters' databases hold this table among others (Kysely's table map is invariant). */
export const asSessionDb = <DB>(db: Kysely<DB>): Kysely<SessionTables> =>
  db as unknown as Kysely<SessionTables>;

export class SessionRepo implements SessionStore {
  readonly #db: Kysely<SessionTables>;

  constructor(db: Kysely<SessionTables>) {
    this.#db = db;
  }

  async add(s: DashboardSessionRecord, now: number): Promise<void> {
    await this.endAllBut(s.keyId, now);
    await this.#db
      .insertInto('dashboard_sessions')
      .values({ id: s.id, key_id: s.keyId, expires_at: s.expiresAt, created_at: s.createdAt })
      .execute();
  }

  async live(id: string, keyId: string, now: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('dashboard_sessions')
      .select('id')
      .where('id', '=', id)
      .where('key_id', '=', keyId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  async end(id: string): Promise<boolean> {
    const r = await this.#db.deleteFrom('dashboard_sessions').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async endAllBut(keyId: string, now: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('dashboard_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('key_id', '<>', keyId)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
