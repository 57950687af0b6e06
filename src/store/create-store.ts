/**
 * Picks the store: PostgreSQL when DATABASE_URL is set (scale-out), else the embedded SQLite
 * file in the data dir. Either way the schema is migrated before use.
 */
import path from 'node:path';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export async function createStore(o: {
  databaseUrl: string | undefined;
  dataDir: string;
  schema?: string;
}): Promise<Store> {
  const store: Store = o.databaseUrl
    ? new PostgresStore(o.databaseUrl, o.schema ? { schema: o.schema } : {})
    : new SqliteStore(path.join(o.dataDir, 'fleetgate.db'));
  await store.migrate();
  return store;
}
