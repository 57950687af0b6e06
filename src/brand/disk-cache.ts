/**
 * A content-addressed cache of build outputs in the data dir (rendered PNGs, outlined SVGs, the
 * tokens CSS, compressed response bodies), so a restart with an unchanged brand reads results
 * instead of recomputing them. Keys are hashes of everything an output depends on; a failing
 * cache write only costs the recomputation next time, never the build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const cacheKey = (...parts: (string | number | Buffer)[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(typeof p === 'number' ? String(p) : p).update('\0');
  return h.digest('hex');
};

const codeHashes = new Map<string, string>();

/**
 * Identifies a build step by the code of the file it runs from and the packages it uses, so a
 * cached output is reused only when the same code would produce it (an upgrade or edit
 * invalidates it). From source that file is the module itself; in the bundle it is the bundle
 * file, hashed once however many steps share it, so any new build renders once.
 */
export function buildId(moduleUrl: string, ...packages: string[]): string {
  let code = codeHashes.get(moduleUrl);
  if (code === undefined) {
    code = cacheKey(readFileSync(fileURLToPath(moduleUrl)));
    codeHashes.set(moduleUrl, code);
  }
  return cacheKey(code, ...packages.map(packageJson));
}

/**
 * buildId of a step whose code spans several modules of one folder: from source each named sibling
 * (`<name>.ts` beside the module) is hashed too; in the bundle the bundle file already holds them.
 */
export function buildIdOf(moduleUrl: string, siblings: string[], ...packages: string[]): string {
  const own = buildId(moduleUrl, ...packages);
  if (!moduleUrl.endsWith('.ts')) return own;
  const dir = path.dirname(fileURLToPath(moduleUrl));
  return cacheKey(own, ...siblings.map((s) => buildId(pathToFileURL(path.join(dir, `${s}.ts`)).href)));
}

/** A package's package.json text (exports often hide the file, so it is found from the entry). */
function packageJson(name: string): string {
  let dir: string;
  try {
    dir = path.dirname(fileURLToPath(import.meta.resolve(name)));
  } catch {
    return name; // a runner without import.meta.resolve: the module's own code still keys the cache
  }
  while (!existsSync(path.join(dir, 'package.json')) || path.basename(dir) !== name) {
    const up = path.dirname(dir);
    if (up === dir) return name;
    dir = up;
  }
  return readFileSync(path.join(dir, 'package.json'), 'utf8');
}

export class DiskCache {
  readonly #dir: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.#dir = dir;
  }

  getSync(key: string): Buffer | undefined {
    try {
      return readFileSync(path.join(this.#dir, key));
    } catch {
      return undefined;
    }
  }

  setSync(key: string, value: Buffer): void {
    const file = path.join(this.#dir, key);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, value);
      renameSync(tmp, file);
    } catch {
      // Read-only or full disk: the output is recomputed next time.
    }
  }

  /** The cached output for `key`, else `compute()`'s, stored for next time. */
  memoSync(key: string, compute: () => Buffer): Buffer {
    const hit = this.getSync(key);
    if (hit) return hit;
    const value = compute();
    this.setSync(key, value);
    return value;
  }

  async memo(key: string, compute: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.getSync(key);
    if (hit) return hit;
    const value = await compute();
    this.setSync(key, value);
    return value;
  }
}
