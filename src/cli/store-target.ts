/**
 * Which store the configuration names, as the CLI opens and describes it: PostgreSQL at
 * DATABASE_URL (the password never shown) in FLEETGATE_DB_SCHEMA, else the SQLite file in the
 * data dir.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { sqliteFile, type StoreOptions } from '../store/create-store.js';

export const storeOptions = (config: Config): StoreOptions => ({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
});

export function describeStore(config: Config): string {
  if (!config.databaseUrl) return `SQLite ${path.resolve(sqliteFile(config.dataDir))}`;
  const u = new URL(config.databaseUrl);
  const where = `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  return `PostgreSQL ${u.username ? `${decodeURIComponent(u.username)}@` : ''}${where}${
    config.databaseSchema ? `, schema ${config.databaseSchema}` : ', schema from the search_path'
  }`;
}
