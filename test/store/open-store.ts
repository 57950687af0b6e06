/**
 * The one SQL store over either engine, opened directly (tests that need a particular engine or
 * two connections to one database).
 */
import { PostgresDialect, type PostgresOptions } from '../../src/store/dialects/postgres.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import { SqlStore } from '../../src/store/sql-store.js';

export const sqliteStore = (file: string) => new SqlStore(new SqliteDialect(file));
export const postgresStore = (url: string, opts: PostgresOptions = {}) =>
  new SqlStore(new PostgresDialect(url, opts));
export type { SqlStore };
