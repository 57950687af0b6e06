/**
 * Picks the store: PostgreSQL when DATABASE_URL is set (scale-out), else the embedded SQLite
 * file in the data dir; either way the one SQL store (sql-store.ts) over that engine's dialect.
 * The schema is migrated before use.
 */
import path from 'node:path';
import { SqlStore } from './sql-store.js';
import type { Store } from './store.js';

export interface StoreOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  schema?: string;
}

/** The embedded store's file in a data dir. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'fleetgate.db');

export async function createStore(o: StoreOptions): Promise<Store> {
  const store = await openStore(o);
  await store.migrate();
  return store;
}

/** The store, not migrated yet (the CLI migrates it itself, to report what it applied). */
export async function openStore(o: StoreOptions): Promise<Store> {
  // Only the engine in use is loaded (pg is not needed by the embedded default, nor SQLite by scale-out).
  const dialect = o.databaseUrl
    ? new (await import('./dialects/postgres.js')).PostgresDialect(
        o.databaseUrl,
        o.schema ? { schema: o.schema } : {},
      )
    : new (await import('./dialects/sqlite.js')).SqliteDialect(sqliteFile(o.dataDir));
  return new SqlStore(dialect);
}
