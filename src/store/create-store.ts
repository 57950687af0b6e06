/**
 * Picks the store: PostgreSQL when DATABASE_URL is set (scale-out), else the embedded SQLite
 * file in the data dir. Either way the schema is migrated before use.
 */
import path from 'node:path';
import type { Store } from './store.js';

export async function createStore(o: {
  databaseUrl: string | undefined;
  dataDir: string;
  schema?: string;
}): Promise<Store> {
  // Only the adapter in use is loaded (pg is not needed by the embedded default, nor SQLite by scale-out).
  const store: Store = o.databaseUrl
    ? new (await import('./postgres/postgres-store.js')).PostgresStore(
        o.databaseUrl,
        o.schema ? { schema: o.schema } : {},
      )
    : new (await import('./sqlite/sqlite-store.js')).SqliteStore(path.join(o.dataDir, 'fleetgate.db'));
  await store.migrate();
  return store;
}
