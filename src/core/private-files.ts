/**
 * The data dir holds sealed tokens, keys and the emulator's issued tokens: what the service
 * makes there is its owner's alone (directories 0700, files 0600), whatever the umask. Files
 * that already exist with group or other bits (left by an older version) lose those bits; a
 * directory that already exists is not changed, only reported (openMode), being the operator's.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Makes the directory (and any missing parents) owner-only; an existing one is left as it is. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** A directory's mode as octal ("0755") when group or others have any access to it, else undefined. */
export function openMode(dir: string): string | undefined {
  const mode = statSync(dir).mode & 0o777;
  return mode & 0o077 ? mode.toString(8).padStart(4, '0') : undefined;
}

/** Takes group and other bits off a file; nothing when it is missing or not ours to change. */
export function tighten(file: string): void {
  try {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) chmodSync(file, mode & 0o700);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw err;
  }
}

/** Creates the file empty and owner-only when it is missing, and tightens it when it is not. */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  tighten(file);
}
