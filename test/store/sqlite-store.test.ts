/**
 * The store contract against the embedded SQLite adapter, on a temporary file per suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runStoreContract } from './store-contract.js';

const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

runStoreContract('sqlite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-store-'));
  dirs.push(dir);
  return Promise.resolve(new SqliteStore(path.join(dir, 'fleetgate.db')));
});
