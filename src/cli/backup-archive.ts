/**
 * The backup archive of `fleetgate backup` and `fleetgate restore`: one gzipped tar (node-tar)
 * holding manifest.json and the data-dir files it lists under their data-dir paths. The manifest
 * says what the archive is (format version, fleetgate version, the store, its migration level,
 * every table's row count, the encryption key ids and which ones sealed values use) and carries
 * each file's size and SHA-256 and a checksum over all of it, so a restore refuses an archive
 * that was cut short or altered before anything is put in place. The archive holds keys: it is
 * written owner-only (0600), through a temporary file renamed into place, never half written.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import * as z from 'zod';

export const FORMAT = 'fleetgate-backup';
export const MANIFEST = 'manifest.json';

/** The data-dir files an archive may hold, as paths relative to the data dir. */
export const DATA_FILES = {
  database: 'fleetgate.db',
  keys: 'encryption-keys.json',
  apiKey: 'api-key',
  sandbox: 'sandbox/sandbox-state.json',
} as const;
const ALLOWED = new Set<string>([MANIFEST, ...Object.values(DATA_FILES)]);

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(1),
  createdAt: z.string(),
  fleetgateVersion: z.string(),
  store: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    /** Whether the database itself is in the archive (SQLite); PostgreSQL's is the operator's dump. */
    included: z.boolean(),
    /** The store as `describeStore` names it (never a password). */
    where: z.string(),
  }),
  migrations: z.object({
    /** The newest migration the database had run. */
    latest: z.string(),
    /** Every migration it had run, this code's and any newer release's. */
    applied: z.array(z.string()),
  }),
  keys: z.object({
    ids: z.array(z.string()),
    /** The key that sealed new values when the backup was taken. */
    current: z.string().nullable(),
    /** The keys the sealed values in the store use. */
    sealedWith: z.array(z.string()),
  }),
  /** Where the API key came from; only 'file' puts it in the archive. */
  apiKey: z.enum(['file', 'environment', 'none']),
  rows: z.record(z.string(), z.number().int().nonnegative()),
  files: z.record(z.string(), z.object({ bytes: z.number().int().nonnegative(), sha256 })),
  checksum: sha256,
});

export type Manifest = z.infer<typeof manifestSchema>;

/** A refusal that names what is wrong with an archive (printed as it is; exit 1). */
export class ArchiveError extends Error {}

export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { bytes: (await stat(file)).size, sha256: hash.digest('hex') };
}

/** Over the whole manifest but this field, files' digests included, in the order written. */
const checksumOf = (m: Omit<Manifest, 'checksum'>) =>
  createHash('sha256').update(JSON.stringify(m)).digest('hex');

/** Lists the staged files, writes the manifest beside them and packs it all into `target`. */
export async function writeArchive(
  staging: string,
  target: string,
  about: Omit<Manifest, 'files' | 'checksum'>,
): Promise<Manifest> {
  const files: Manifest['files'] = {};
  for (const name of Object.values(DATA_FILES)) {
    const file = path.join(staging, name);
    if ((await lstat(file).catch(() => undefined))?.isFile()) files[name] = await fileDigest(file);
  }
  const body = { ...about, files };
  const manifest: Manifest = { ...body, checksum: checksumOf(body) };
  await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  const next = `${target}.${process.pid}.tmp`;
  try {
    // portable: no owner names or ids, which mean nothing on the machine it is restored on.
    const pack = tar.c({ gzip: true, cwd: staging, portable: true }, [MANIFEST, ...Object.keys(files)]);
    await pipeline(pack, createWriteStream(next, { mode: 0o600, flags: 'wx' }));
    // On disk before it takes the archive's name: a crash leaves the old file or the new, whole.
    const handle = await open(next, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(next, target);
  } catch (err) {
    await rm(next, { force: true });
    throw err;
  }
  return manifest;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}

/**
 * Unpacks `file` into the empty folder `into` and checks it whole: only the files an archive may
 * hold, a manifest of this format, every file of the size and SHA-256 it lists and no other, and
 * the checksum over the manifest. Throws ArchiveError saying what is wrong.
 */
export async function readArchive(file: string, into: string): Promise<Manifest> {
  const st = await stat(file).catch(() => undefined);
  if (!st?.isFile()) throw new ArchiveError(`no archive at ${file}`);
  const refused: string[] = [];
  try {
    await tar.x({
      file,
      cwd: into,
      strict: true,
      // Only the files an archive holds, as plain files or their folder: no links, no devices,
      // nothing outside `into` (node-tar also refuses absolute and `..` paths).
      filter: (p, entry) => {
        const name = p.replace(/^\.\//, '').replace(/\/$/, '');
        const type = 'type' in entry ? entry.type : entry.isDirectory() ? 'Directory' : 'File';
        const ok =
          (type === 'File' && ALLOWED.has(name)) ||
          (type === 'Directory' && name === path.dirname(DATA_FILES.sandbox));
        if (!ok) refused.push(name);
        return ok;
      },
    });
  } catch (err) {
    throw new ArchiveError(`${file} is not a readable backup archive (${(err as Error).message})`);
  }
  if (refused.length > 0)
    throw new ArchiveError(`${file} holds files a fleetgate backup does not: ${refused.join(', ')}`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path.join(into, MANIFEST), 'utf8'));
  } catch {
    throw new ArchiveError(
      `${file} has no readable ${MANIFEST}: it is not a fleetgate backup, or it is damaged`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const format = (raw as { format?: unknown; formatVersion?: unknown } | null) ?? {};
    throw new ArchiveError(
      format.format === FORMAT && format.formatVersion !== 1
        ? `${file} is a backup of format ${String(format.formatVersion)}, which this version does not read: restore it with the fleetgate that wrote it or a newer one`
        : `${file} is not a fleetgate backup, or its manifest is damaged (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`,
    );
  }
  const manifest = parsed.data;
  const { checksum, ...body } = manifest;
  if (checksumOf(body) !== checksum)
    throw new ArchiveError(`${file} is damaged: its manifest does not match its checksum`);
  const present = (await listFiles(into)).filter((n) => n !== MANIFEST).sort();
  const listed = Object.keys(manifest.files).sort();
  const missing = listed.filter((n) => !present.includes(n));
  const extra = present.filter((n) => !listed.includes(n));
  if (missing.length > 0 || extra.length > 0)
    throw new ArchiveError(
      `${file} is damaged: ${missing.length ? `missing ${missing.join(', ')}` : `unlisted ${extra.join(', ')}`}`,
    );
  for (const [name, want] of Object.entries(manifest.files)) {
    const got = await fileDigest(path.join(into, name));
    if (got.bytes !== want.bytes || got.sha256 !== want.sha256)
      throw new ArchiveError(
        `${file} is damaged: ${name} does not match its checksum (${got.bytes} bytes, SHA-256 ${got.sha256.slice(0, 12)}…; the manifest says ${want.bytes} bytes, ${want.sha256.slice(0, 12)}…)`,
      );
  }
  return manifest;
}
