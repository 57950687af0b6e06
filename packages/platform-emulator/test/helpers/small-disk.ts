/**
 * A small tmpfs of the test's own, to fill up for real (ENOSPC). Mounting needs root: elsewhere
 * the suite skips with one line, except in CI (CI=true), where that is a failure.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Takes every free byte. */
  fill(): void;
  /** Gives them back. */
  free(): void;
  unmount(): void;
}

/** A tmpfs of `mib` MiB mounted on a fresh directory, or undefined (and one line saying why). */
export function mountSmallDisk(what: string, mib: number): SmallDisk | undefined {
  const why = (reason: string) => {
    if (process.env['CI'] === 'true') throw new Error(`${what} needs a tmpfs in CI: ${reason}`);
    console.warn(`${what} skipped: ${reason}`);
    return undefined;
  };
  if (process.getuid?.() !== 0) return why('not root (mounting a tmpfs needs it)');
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmdirSync(dir);
    return why(`mount failed: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      try {
        writeFileSync(filler, Buffer.alloc((mib + 1) * 1024 * 1024));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    },
    free() {
      if (existsSync(filler)) unlinkSync(filler);
    },
    unmount() {
      execFileSync('umount', [dir]);
      rmdirSync(dir);
    },
  };
}
