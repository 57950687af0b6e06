/**
 * Picks the store: PostgreSQL when DATABASE_URL is set (scale-out), else the embedded SQLite
 * file in the data dir. Either way the schema is migrated before use.
 */
import path from 'node:path';
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
  // Only the adapter in use is loaded (pg is not needed by the embedded default, nor SQLite by scale-out).
  return o.databaseUrl
    ? new (await import('./postgres/postgres-store.js')).PostgresStore(
        o.databaseUrl,
        o.schema ? { schema: o.schema } : {},
      )
    : new (await import('./sqlite/sqlite-store.js')).SqliteStore(sqliteFile(o.dataDir));
}
