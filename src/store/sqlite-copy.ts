/**
 * A consistent copy of the embedded store while the service writes to it, for `fleetgate backup`:
 * SQLite's online backup API (better-sqlite3's `backup()`), never a copy of the file, which in
 * WAL mode misses what is still in the -wal file and may catch a page half written. The copy is
 * made in one backup step, so it is read in one transaction: a snapshot of every commit before
 * it started, and writers go on meanwhile (WAL readers block no one). Then the copy is made a
 * self-contained file (rollback journal, no -wal beside it) and checked.
 */
import { existsSync } from 'node:fs';
import { Database } from './dialects/sqlite-driver.js';

/** More pages than any database has: the whole copy in one step (one read transaction). */
const ALL_PAGES = 0x7fffffff;

export async function backupSqlite(source: string, dest: string): Promise<void> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // The first step copies nothing and says how many pages there are; the next copies them all.
    await db.backup(dest, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  settleSqliteFile(dest);
}

/**
 * Leaves `file` a single self-contained database (its journal mode DELETE: no -wal or -shm to
 * carry beside it; the service sets WAL again when it opens it) and checks it is sound.
 */
export function settleSqliteFile(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the database copy ${file} is not sound: ${String(check)}`);
  } finally {
    db.close();
  }
}
