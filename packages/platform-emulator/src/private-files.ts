/**
 * The emulator's state holds the tokens it issued: its folder is its owner's alone (0700) and
 * its files 0600, whatever the umask.
 */
import { mkdirSync } from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** Makes the directory (and any missing parents) owner-only; an existing one is left as it is. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
