/**
 * The store contract against the embedded SQLite adapter, on a temporary file per suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sqliteStore } from './open-store.js';
import { runBrandVersionsContract } from './brand-versions-contract.js';
import { runOutboxContract } from './outbox-contract.js';
import { SqliteDialect } from '../../src/store/dialects/sqlite.js';
import { runBackfillContract, runListContract } from './lists-contract.js';
import { runStoreContract, sampleEvent } from './store-contract.js';

const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const freshFile = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-store-'));
  dirs.push(dir);
  return path.join(dir, 'fleetgate.db');
};

runStoreContract('sqlite', () => Promise.resolve(sqliteStore(freshFile())));
runListContract('sqlite', () => Promise.resolve(sqliteStore(freshFile())));
runBackfillContract('sqlite', () => new SqliteDialect(freshFile()));

// Two connections to one file, as two processes would have.
runOutboxContract('sqlite', () => {
  const file = freshFile();
  return Promise.resolve({ a: sqliteStore(file), b: sqliteStore(file) });
});

runBrandVersionsContract('sqlite', () => {
  const file = freshFile();
  return Promise.resolve({ a: sqliteStore(file), b: sqliteStore(file) });
});

it("moves its change stamp when another connection to the file commits (a second process's write)", async () => {
  const file = freshFile();
  const a = sqliteStore(file);
  const b = sqliteStore(file);
  await a.migrate();
  await b.migrate();
  const before = a.changeStamp().stamp;
  await b.insertEvent(sampleEvent('other-1', '2026-02-01T10:00:00Z'));
  expect(a.changeStamp().stamp).not.toBe(before);
  await a.close();
  await b.close();
});
