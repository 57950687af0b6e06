/**
 * `fleetgate restore <file>`: puts a `fleetgate backup` archive back into the configured data dir,
 * which must be empty (or --force), so that the next start serves the link with its tokens
 * readable, the stored events, the outbox's undelivered webhooks and the brand versions. Before
 * anything is put in place it checks the archive whole (backup-archive.ts), refuses one from a
 * newer release (its database has run migrations this code does not know) and checks that its
 * keys open every sealed value; an archive from an older release is migrated forward. On
 * PostgreSQL the archive holds the keys, not the database: the operator restores the dump first
 * (psql, pg_restore), and this checks the keys against that database and puts them in place.
 * Keys are never printed, only their ids.
 */
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseConfig, type Config } from '../config.js';
import { keyring, open, sealedKeyId, VaultError, type Keyring } from '../gateway/oauth/vault.js';
import { readKeyFile, writeKeyFile } from '../gateway/secrets.js';
import { privateDir, tighten } from '../core/private-files.js';
import { openStore, sqliteFile } from '../store/create-store.js';
import { settleSqliteFile } from '../store/sqlite-copy.js';
import type { Store } from '../store/store.js';
import { ArchiveError, DATA_FILES, readArchive, type Manifest } from './backup-archive.js';
import { aadFor } from './reseal.js';
import { describeStore, storeOptions } from './store-target.js';

export interface RestoreOptions {
  file: string;
  force: boolean;
}

const line = (label: string, value: string) => `  ${label.padEnd(12)}${value}\n`;

/** The sealed values the keys do not open, as `table.column (id): why` (no keys: none opens). */
async function unreadable(store: Store, ring: Keyring | undefined): Promise<string[]> {
  const out: string[] = [];
  for (const v of await store.sealedValues()) {
    try {
      if (!ring) throw new VaultError('no keys', 'key_missing', sealedKeyId(v.value));
      open(ring, v.value, aadFor(v));
    } catch (err) {
      if (!(err instanceof VaultError)) throw err;
      out.push(
        `${v.table}.${v.column} (${v.id}): ${err.reason === 'key_missing' ? `key ${err.keyId} is not in the archive` : err.reason === 'failed_authentication' ? 'altered' : 'not a sealed value'}`,
      );
    }
  }
  return out;
}

/** What the restore found in the database and did to it. */
interface Checked {
  /** Migrations applied to bring an older archive's database forward. */
  forward: string[];
  /** Differences between the manifest's row counts and the database's (PostgreSQL: the dump may be another moment's). */
  rowNotes: string[];
  /** Sealed values the keys do not open (restored anyway only with --force). */
  unreadable: number;
  /** Outgoing deliveries the backed-up service was attempting, their leases freed. */
  released: number;
}

async function checkStore(
  store: Store,
  m: Manifest,
  ring: Keyring | undefined,
  o: { force: boolean; postgres: boolean; where: string },
): Promise<Checked> {
  const state = await store.migrations();
  if (o.postgres && state.applied.length === 0 && state.unknown.length === 0)
    throw new ArchiveError(
      `${o.where} has no fleetgate tables: restore the database's dump into it first (psql --file=<dump> "$DATABASE_URL", or pg_restore), then run fleetgate restore again`,
    );
  if (state.unknown.length > 0)
    throw new ArchiveError(
      `${o.postgres ? `the database at ${o.where}` : 'this archive'} comes from a newer fleetgate: its database has run ${state.unknown.join(', ')}, which this version (migrations up to ${[...state.applied, ...state.pending].sort().at(-1) ?? 'none'}) does not know. Restore it with that release or a newer one.`,
    );
  const ran = state.applied;
  const rowNotes: string[] = [];
  const counts = await store.tableCounts();
  if (!o.postgres) {
    // The archive's own database: it must be exactly what the manifest describes.
    if (JSON.stringify(ran) !== JSON.stringify(m.migrations.applied))
      throw new ArchiveError(
        `the archive is damaged: its database has run ${ran.at(-1) ?? 'nothing'}, its manifest says ${m.migrations.latest}`,
      );
    for (const [table, n] of Object.entries(m.rows))
      if (counts[table] !== n)
        throw new ArchiveError(
          `the archive is damaged: its database holds ${counts[table] ?? 0} rows in ${table}, its manifest says ${n}`,
        );
  } else {
    if (ran.at(-1) !== m.migrations.latest)
      rowNotes.push(
        `the database is at migration ${ran.at(-1) ?? 'none'}, the archive's manifest at ${m.migrations.latest}: the dump and the keys were taken at different times`,
      );
    for (const [table, n] of Object.entries(m.rows))
      if (counts[table] !== undefined && counts[table] !== n)
        rowNotes.push(`${table}: ${counts[table]} rows in the database, ${n} when the keys were backed up`);
  }
  const cannot = await unreadable(store, ring);
  if (cannot.length > 0 && !o.force)
    throw new ArchiveError(
      `the archive's keys do not open ${cannot.length} sealed value(s), so the link would need relinking:\n${cannot
        .map((c) => `  ${c}`)
        .join('\n')}\nRestore the archive that holds their key, or pass --force to restore anyway`,
    );
  const before = state.pending;
  if (before.length > 0) await store.migrate();
  // Deliveries under way when the backup was taken: the restored service sends them at once.
  const released = await store.webhooks.releaseLeases();
  return { forward: before, rowNotes, unreadable: cannot.length, released };
}

/** Why the data dir may not be restored into, or undefined. */
function dirRefusal(dataDir: string, force: boolean): string | undefined {
  if (force || !existsSync(dataDir)) return undefined;
  const entries = readdirSync(dataDir);
  if (entries.length === 0) return undefined;
  return `the data dir ${dataDir} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}): restore into an empty one, or stop the service and pass --force to replace its store, keys and API key`;
}

export async function restore(o: RestoreOptions): Promise<number> {
  const config = parseConfig(process.env);
  const dataDir = path.resolve(config.dataDir);
  const refusal = dirRefusal(dataDir, o.force);
  if (refusal) throw new Error(refusal);
  const postgres = config.databaseUrl !== undefined;
  privateDir(dataDir);
  // Inside the data dir: the database is renamed into place, on the same file system.
  const staging = await mkdtemp(path.join(dataDir, '.fleetgate-restore-'));
  try {
    const m = await readArchive(path.resolve(o.file), staging);
    if (m.store.kind === 'sqlite' && postgres)
      throw new ArchiveError(
        `this archive holds a SQLite store (${m.store.where}); DATABASE_URL is set: unset it to restore into ${sqliteFile(dataDir)}`,
      );
    if (m.store.kind === 'postgres' && !postgres)
      throw new ArchiveError(
        `this archive comes from a PostgreSQL store (${m.store.where}) and holds its keys, not the database: set DATABASE_URL (and FLEETGATE_DB_SCHEMA) to the database its dump was restored into`,
      );
    const keys = readKeyFile(path.join(staging, DATA_FILES.keys));
    const material = [
      ...keys.map((k) => Buffer.from(k.key, 'base64')),
      ...(config.encryptionKey ? [Buffer.from(config.encryptionKey, 'base64')] : []),
    ];
    // A store that never sealed anything may come without keys (the service makes one at start).
    const ring = material.length > 0 ? keyring(material) : undefined;
    const store = await openStore(
      postgres ? storeOptions(config) : { databaseUrl: undefined, dataDir: staging },
    );
    let checked: Checked;
    try {
      checked = await checkStore(store, m, ring, { force: o.force, postgres, where: describeStore(config) });
    } finally {
      await store.close();
    }
    await place(staging, dataDir, m, postgres);
    report(config, m, checked, postgres);
    return 0;
  } catch (err) {
    if (!(err instanceof ArchiveError)) throw err;
    process.stderr.write(`fleetgate restore: nothing restored: ${err.message}\n`);
    return 1;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Moves the checked files into the data dir, replacing what --force let stay there. */
async function place(staging: string, dataDir: string, m: Manifest, postgres: boolean): Promise<void> {
  if (!postgres) {
    const db = path.join(staging, DATA_FILES.database);
    settleSqliteFile(db);
    const live = sqliteFile(dataDir);
    // A -wal left beside the old file would be replayed into the new one: gone first.
    for (const side of ['-wal', '-shm', '-journal']) await rm(`${live}${side}`, { force: true });
    await rename(db, live);
  }
  const keys = readKeyFile(path.join(staging, DATA_FILES.keys));
  if (keys.length > 0) writeKeyFile(path.join(dataDir, DATA_FILES.keys), keys);
  for (const name of [DATA_FILES.apiKey, DATA_FILES.sandbox]) {
    if (!m.files[name]) continue;
    await mkdir(path.dirname(path.join(dataDir, name)), { recursive: true, mode: 0o700 });
    await copyFile(path.join(staging, name), path.join(dataDir, name));
    tighten(path.join(dataDir, name));
  }
}

function report(config: Config, m: Manifest, c: Checked, postgres: boolean): void {
  const rows = Object.entries(m.rows)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  process.stdout.write(
    `fleetgate restore: restored the backup of ${m.createdAt} (fleetgate ${m.fleetgateVersion}) into ${path.resolve(config.dataDir)}\n` +
      line(
        'store',
        postgres
          ? `${describeStore(config)}: the database restored from its dump, checked against the archive`
          : `SQLite ${sqliteFile(path.resolve(config.dataDir))}`,
      ) +
      line(
        'migrations',
        c.forward.length > 0
          ? `${m.migrations.latest} in the archive, migrated forward: ${c.forward.join(', ')}`
          : `${m.migrations.latest} (current)`,
      ) +
      line('rows', rows || 'none') +
      line(
        'keys',
        `${m.keys.ids.length} encryption key(s) by id: ${m.keys.ids.join(', ') || 'none'}; ${
          c.unreadable > 0
            ? `${c.unreadable} sealed value(s) do not open (--force): the link needs relinking`
            : 'every sealed value opens with them'
        }`,
      ) +
      line('API key', m.files[DATA_FILES.apiKey] ? 'restored' : 'not in the archive') +
      (c.released > 0
        ? line(
            'webhooks',
            `${c.released} delivery attempt(s) under way at the backup: sent again at the next start (same webhook-id)`,
          )
        : '') +
      (m.files[DATA_FILES.sandbox] ? line('sandbox', 'the emulator’s state restored') : '') +
      c.rowNotes.map((n) => line('note', n)).join('') +
      `Start the service on it (npm start, or fleetgate serve).\n`,
  );
}
