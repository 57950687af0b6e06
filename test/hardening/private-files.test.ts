/**
 * What the service keeps on disk is its owner's alone: after a real start in sandbox mode, the
 * data dir it created is 0700, and the database (with SQLite's -wal and -shm files), the key
 * files and the emulator's state are 0600. A database left readable by an older version is
 * tightened when the store opens it.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../store/open-store.js';
import { eventually } from '../helpers/build-test-app.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8).padStart(4, '0');

let root: string | undefined;
let svc: Service | undefined;
afterAll(async () => {
  if (svc && svc.child.exitCode === null) await svc.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('files at rest', () => {
  it('are 0600 in a 0700 data dir after a start in sandbox mode', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'fleetgate-files-'));
    // Not there yet: the service makes it.
    const dataDir = path.join(root, 'data');
    svc = await startService({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0' });
    const at = (p: string) => path.join(dataDir, p);
    // The demo account was linked at start: the emulator has written the tokens it issued.
    await eventually(() => expect(existsSync(at('sandbox/sandbox-state.json'))).toBe(true));
    const modes = Object.fromEntries(
      [
        '.',
        'fleetgate.db',
        'fleetgate.db-wal',
        'fleetgate.db-shm',
        'api-key',
        'encryption-keys.json',
        'sandbox',
        'sandbox/sandbox-state.json',
      ].map((p) => [p, mode(at(p))]),
    );
    expect(modes).toEqual({
      '.': '0700',
      'fleetgate.db': '0600',
      'fleetgate.db-wal': '0600',
      'fleetgate.db-shm': '0600',
      'api-key': '0600',
      'encryption-keys.json': '0600',
      sandbox: '0700',
      'sandbox/sandbox-state.json': '0600',
    });
  });

  it('are tightened when a readable database is opened', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-files-'));
    try {
      const file = path.join(dir, 'fleetgate.db');
      const first = sqliteStore(file);
      await first.migrate();
      await first.close();
      writeFileSync(`${file}-wal`, '');
      for (const f of [file, `${file}-wal`]) chmodSync(f, 0o644);
      const store = sqliteStore(file);
      await store.migrate();
      expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual(['0600', '0600', '0600']);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
