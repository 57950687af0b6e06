/**
 * SQLite's write transactions: they take the database's write lock up front (`BEGIN IMMEDIATE`),
 * so processes sharing the file queue for it instead of failing to upgrade a read lock; and the
 * outgoing-delivery claim built on them: one claimer at a time reads the due rows and leases
 * them before anyone else can read them.
 */
import { sql, type Kysely } from 'kysely';
import { dueDeliveries, type ClaimIds } from '../outbox-sql.js';

/**
 * Write transactions per database file within this process. better-sqlite3 is synchronous: a
 * second connection in the same process waiting on the file's write lock would block the one
 * thread the lock holder needs to finish, until busy_timeout gives up. So connections of one
 * process queue here, without blocking; other processes still queue on the lock itself.
 */
const writers = new Map<string, Promise<unknown>>();

function queued<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const previous = writers.get(file) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  writers.set(file, tail);
  void tail.then(() => {
    if (writers.get(file) === tail) writers.delete(file);
  });
  return run;
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction on the store's one connection; `fn` must query
 * through the handle it is given (the connection is held until it returns). `file` names the
 * database, for the in-process queue (':memory:' databases are never shared).
 */
export function immediate<DB, T>(
  file: string,
  db: Kysely<DB>,
  fn: (conn: Kysely<DB>) => Promise<T>,
): Promise<T> {
  const tx = () =>
    db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        await rollback(conn);
        throw err;
      }
    });
  return file === ':memory:' ? tx() : queued(file, tx);
}

/**
 * Rolls back the write transaction, unless SQLite already has: it ends the transaction itself on
 * some errors (a full disk, an I/O error), and then the error to report is that first one, not
 * "no transaction is active".
 */
async function rollback<DB>(conn: Kysely<DB>): Promise<void> {
  try {
    await sql`rollback`.execute(conn);
  } catch (err) {
    if (!(err instanceof Error && /no transaction is active/.test(err.message))) throw err;
  }
}

/** The claim for a store on `file`: leases due rows inside an immediate transaction. */
export const claimSqlite =
  (file: string): ClaimIds =>
  async (db, o) => {
    // A plain read first: an idle poll should not take the write lock every time.
    if (!(await dueDeliveries(db, o.now).limit(1).executeTakeFirst())) return [];
    return immediate(file, db, async (conn) => {
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
