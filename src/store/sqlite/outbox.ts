/**
 * SQLite's part of the outgoing-webhook store: write transactions that take the database's
 * write lock up front (`BEGIN IMMEDIATE`), so processes sharing the file queue for it instead of
 * failing to upgrade a read lock, and the delivery claim built on them: one claimer at a time
 * reads the due rows and leases them before anyone else can read them.
 */
import { sql, type Kysely } from 'kysely';
import { dueDeliveries, type ClaimIds } from '../outbox-sql.js';

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction on the store's one connection; `fn` must query
 * through the handle it is given (the connection is held until it returns).
 */
export function immediate<DB, T>(db: Kysely<DB>, fn: (conn: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}

export const claimSqlite: ClaimIds = async (db, o) => {
  // A plain read first: an idle poll should not take the write lock every time.
  if (!(await dueDeliveries(db, o.now).limit(1).executeTakeFirst())) return [];
  return immediate(db, async (conn) => {
    const ids = (await dueDeliveries(conn, o.now).limit(o.limit).execute()).map((r) => r.id);
    if (ids.length > 0) {
      await conn
        .updateTable('webhook_deliveries')
        .set({ locked_until: o.now + o.leaseMs, lock_token: o.token })
        .where('id', 'in', ids)
        .execute();
    }
    return ids;
  });
};
