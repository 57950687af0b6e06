/**
 * A content-addressed cache of build outputs in the data dir (rendered PNGs, outlined SVGs, the
 * tokens CSS, compressed response bodies), so a restart with an unchanged brand reads results
 * instead of recomputing them. Keys are hashes of everything an output depends on; a failing
 * cache write only costs the recomputation next time, never the build.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const cacheKey = (...parts: (string | number | Buffer)[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(typeof p === 'number' ? String(p) : p).update('\0');
  return h.digest('hex');
};

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

  async memo(key: string, compute: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.getSync(key);
    if (hit) return hit;
    const value = await compute();
    this.setSync(key, value);
    return value;
  }
}
