/**
 * Kysely's SQLite driver prepares every query afresh; preparing costs more than running our small
 * queries (~70% of the status report's store time in the bench profile). This hands Kysely a
 * database whose prepare() reuses statements by SQL text. better-sqlite3 runs a statement
 * synchronously to completion, so one statement object serves every caller; streaming
 * (iterate) is never used by the store.
 */
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts are few (the store's queries); the cap only bounds an unexpected variety. */
const MAX_STATEMENTS = 256;

export function cachingDatabase(raw: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      raw.close();
    },
    prepare: (sql) => {
      let stmt = statements.get(sql);
      if (!stmt) {
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        stmt = raw.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt;
    },
  };
}
