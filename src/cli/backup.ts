/**
 * `fleetgate backup <file>`: one archive (backup-archive.ts) from which `fleetgate restore`
 * brings the service back with its link usable, taken while the service runs. It holds the
 * encryption keys the sealed tokens and secrets need (the data dir's key file, plus
 * FLEETGATE_ENCRYPTION_KEY when set), the data dir's API key, the emulator's state in sandbox
 * mode and, on SQLite, a consistent online copy of the database (sqlite-copy.ts). On PostgreSQL
 * the database is the operator's to dump (pg_dump): the archive holds the keys and the manifest
 * (migration level and row counts of the live database), and the command says so. The archive
 * holds keys, so it is written 0600 and never into a folder other users can read unless --force;
 * no key is ever printed, only key ids.
 */
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseConfig, type Config } from '../config.js';
import { keyId, sealedKeyId } from '../gateway/oauth/vault.js';
import { apiKeyFile, readKeyFile, writeKeyFile } from '../gateway/secrets.js';
import { openStore, sqliteFile } from '../store/create-store.js';
import { backupSqlite, settleSqliteFile } from '../store/sqlite-copy.js';
import { VERSION } from '../version.js';
import { DATA_FILES, writeArchive, type Manifest } from './backup-archive.js';
import { describeStore, storeOptions } from './store-target.js';

export interface BackupOptions {
  file: string;
  force: boolean;
}

/** The data dir's key file and the configured key, as one key file for the archive. */
export function keyEntries(config: Config): { id: string; key: string; createdAt: string }[] {
  const entries = readKeyFile(path.join(config.dataDir, DATA_FILES.keys)).map((e) => ({
    ...e,
    id: keyId(Buffer.from(e.key, 'base64')),
  }));
  // Last, so a service started on the restored data dir without it seals with it, as before.
  if (config.encryptionKey && !entries.some((e) => e.key === config.encryptionKey))
    entries.push({
      id: keyId(Buffer.from(config.encryptionKey, 'base64')),
      key: config.encryptionKey,
      createdAt: new Date().toISOString(),
    });
  return entries;
}

/** Why the archive may not be written at `target`, or undefined. */
function placeRefusal(target: string, force: boolean): string | undefined {
  const dir = path.dirname(target);
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return `the folder ${dir} does not exist`;
  if (force) return undefined;
  const mode = st.mode & 0o777;
  if (mode & 0o004)
    return `the folder ${dir} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}) and the archive holds the encryption keys and the API key: write it into a folder only you can read (chmod 700 ${dir}), or pass --force`;
  if (existsSync(target)) return `${target} already exists; pass --force to replace it`;
  return undefined;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const line = (label: string, value: string) => `  ${label.padEnd(12)}${value}\n`;

export async function backup(o: BackupOptions): Promise<number> {
  const config = parseConfig(process.env);
  const started = performance.now();
  const target = path.resolve(o.file);
  const refusal = placeRefusal(target, o.force);
  if (refusal) throw new Error(refusal);
  const postgres = config.databaseUrl !== undefined;
  if (!postgres && !existsSync(sqliteFile(config.dataDir)))
    throw new Error(
      `no store at ${path.resolve(sqliteFile(config.dataDir))}: nothing to back up (the service has not run with this configuration)`,
    );
  // Beside the archive: the same file system (the rename), and no copy of the store in a shared /tmp.
  const staging = await mkdtemp(path.join(path.dirname(target), '.fleetgate-backup-'));
  try {
    if (!postgres) await backupSqlite(sqliteFile(config.dataDir), path.join(staging, DATA_FILES.database));
    // The copy on SQLite (what the archive holds), the live database on PostgreSQL: read, never migrated.
    const store = await openStore(
      postgres ? storeOptions(config) : { databaseUrl: undefined, dataDir: staging },
    );
    const { state, rows, sealed } = await (async () => {
      try {
        const state = await store.migrations();
        if (state.applied.length === 0 && state.unknown.length === 0)
          throw new Error(`${describeStore(config)} has no fleetgate tables: nothing to back up`);
        return { state, rows: await store.tableCounts(), sealed: await store.sealedValues() };
      } finally {
        await store.close();
      }
    })();
    if (!postgres) settleSqliteFile(path.join(staging, DATA_FILES.database));

    const keys = keyEntries(config);
    if (keys.length > 0) writeKeyFile(path.join(staging, DATA_FILES.keys), keys);
    const ids = keys.map((k) => k.id);
    const sealedWith = [...new Set(sealed.map((v) => sealedKeyId(v.value)))].sort();
    const apiKey = config.apiKey ? 'environment' : existsSync(apiKeyFile(config.dataDir)) ? 'file' : 'none';
    if (apiKey === 'file') await copyFile(apiKeyFile(config.dataDir), path.join(staging, DATA_FILES.apiKey));
    const sandboxState = path.join(config.dataDir, DATA_FILES.sandbox);
    const sandbox = existsSync(sandboxState);
    if (sandbox) {
      await mkdir(path.join(staging, path.dirname(DATA_FILES.sandbox)), { mode: 0o700 });
      await copyFile(sandboxState, path.join(staging, DATA_FILES.sandbox));
    }
    const applied = [...state.applied, ...state.unknown].sort();
    const manifest = await writeArchive(staging, target, {
      format: 'fleetgate-backup',
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      fleetgateVersion: VERSION,
      store: { kind: postgres ? 'postgres' : 'sqlite', included: !postgres, where: describeStore(config) },
      migrations: { latest: applied.at(-1) ?? 'none', applied },
      keys: {
        ids,
        current: config.encryptionKey
          ? keyId(Buffer.from(config.encryptionKey, 'base64'))
          : (ids.at(-1) ?? null),
        sealedWith,
      },
      apiKey,
      rows,
    });
    report(config, target, manifest, {
      bytes: (await stat(target)).size,
      seconds: (performance.now() - started) / 1000,
      sandbox,
    });
    const lost = sealedWith.filter((id) => !ids.includes(id));
    if (lost.length > 0) {
      // Already unreadable in the running service too (it reports needing a relink).
      process.stderr.write(
        `fleetgate backup: warning: sealed values use key(s) ${lost.join(', ')}, which are neither in ${path.join(config.dataDir, DATA_FILES.keys)} nor FLEETGATE_ENCRYPTION_KEY: the archive cannot open them either.\n`,
      );
    }
    return 0;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function report(
  config: Config,
  target: string,
  m: Manifest,
  o: { bytes: number; seconds: number; sandbox: boolean },
): void {
  const rows = Object.entries(m.rows)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  const postgres = m.store.kind === 'postgres';
  process.stdout.write(
    `fleetgate backup: wrote ${target} (${mb(o.bytes)}, mode 0600) in ${o.seconds.toFixed(1)} s\n` +
      line(
        'store',
        postgres
          ? `${m.store.where}: NOT in the archive (see below)`
          : `${m.store.where}: a consistent online copy (SQLite backup API)`,
      ) +
      line('migrations', `${m.migrations.latest} (${m.migrations.applied.length} applied)`) +
      line('rows', rows || 'none') +
      line(
        'keys',
        `${m.keys.ids.length} encryption key(s) by id: ${m.keys.ids.join(', ') || 'none'}${m.keys.current ? ` (current ${m.keys.current})` : ''}; sealed values use ${m.keys.sealedWith.join(', ') || 'none'}`,
      ) +
      line(
        'API key',
        m.apiKey === 'file'
          ? 'included (the data dir’s api-key)'
          : m.apiKey === 'environment'
            ? 'not included: it is FLEETGATE_API_KEY, kept by you'
            : 'none yet',
      ) +
      (o.sandbox ? line('sandbox', 'the emulator’s state, as it last saved it') : '') +
      (postgres
        ? `\nOn PostgreSQL this archive holds the encryption keys, the API key and the manifest (migration\n` +
          `level and row counts read from the live database), not the database: back that up with\n` +
          `PostgreSQL's own tools and keep both together; without the keys a dump cannot open the\n` +
          `tokens. For example:\n` +
          `  pg_dump --no-owner${config.databaseSchema ? ` --schema=${config.databaseSchema}` : ''} --file=fleetgate.sql "$DATABASE_URL"\n` +
          `Restore: the dump first (psql --file=fleetgate.sql "$DATABASE_URL"), then fleetgate restore ${path.basename(target)}.\n`
        : ''),
  );
}
