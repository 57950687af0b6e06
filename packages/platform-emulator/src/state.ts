/**
 * The emulator's whole state: issued codes and tokens, and one data slice per API group.
 * It is kept in memory and written to the data dir (atomically, shortly after each change), so
 * a restart keeps issued tokens valid and API-created objects in place. A save that fails (a
 * full disk) leaves no temporary file and is retried with backoff while the emulator serves on.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { PRIVATE_FILE_MODE, privateDir } from './private-files.js';

export interface AccessToken {
  token: string;
  grant: 'authorization_code' | 'refresh_token' | 'account_credentials' | 'client_credentials';
  userId: string | null;
  accountId: string;
  scopes: string[];
  expiresAt: number;
  refreshToken: string | null;
}

export interface RefreshToken {
  token: string;
  userId: string;
  accountId: string;
  scopes: string[];
  expiresAt: number;
}

export interface AuthCode {
  code: string;
  redirectUri: string;
  challenge: string | null;
  method: 'S256' | 'plain';
  userId: string;
  expiresAt: number;
}

export interface StateFile {
  version: 1;
  /** The UTC day the seeded data was generated for. */
  anchor: string;
  access: Record<string, AccessToken>;
  refresh: Record<string, RefreshToken>;
  codes: Record<string, AuthCode>;
  slices: Record<string, unknown>;
}

/** The first retry of a failed save, doubling up to SAVE_RETRY_MAX_MS. */
const SAVE_RETRY_FIRST_MS = 100;
const SAVE_RETRY_MAX_MS = 5_000;
const STATE_FILE = 'sandbox-state.json';
/** The temporary files saves write first (see flush), one per process. */
const TEMP_FILE = /^sandbox-state\.json\.\d+\.tmp$/;

export class EmulatorState {
  #timer: NodeJS.Timeout | undefined;
  /** Saves failed in a row (a full disk, say); the next retry waits longer. */
  #failures = 0;
  #disposed = false;
  constructor(
    public file: StateFile,
    private readonly location: string | undefined,
    private readonly logger?: Logger,
  ) {}

  static load(dataDir: string | undefined, logger?: Logger): EmulatorState | undefined {
    const location = dataDir ? path.join(dataDir, STATE_FILE) : undefined;
    if (!dataDir || !location || !existsSync(location)) return undefined;
    // A process that died mid-save (before saves cleaned up after themselves) left its temporary
    // file; on a full disk that is room the next save needs.
    for (const f of readdirSync(dataDir).filter((n) => TEMP_FILE.test(n)))
      rmSync(path.join(dataDir, f), { force: true });
    try {
      const parsed = JSON.parse(readFileSync(location, 'utf8')) as StateFile;
      return parsed.version === 1 ? new EmulatorState(parsed, location, logger) : undefined;
    } catch {
      return undefined;
    }
  }

  static fresh(
    dataDir: string | undefined,
    anchor: string,
    slices: Record<string, unknown>,
    logger?: Logger,
  ): EmulatorState {
    const location = dataDir ? path.join(dataDir, STATE_FILE) : undefined;
    return new EmulatorState(
      { version: 1, anchor, access: {}, refresh: {}, codes: {}, slices },
      location,
      logger,
    );
  }

  slice<T>(name: string): T {
    return this.file.slices[name] as T;
  }

  /**
   * Schedules a save; many changes in a burst cost one. A save that fails (a full disk) is
   * retried with backoff until one succeeds, and each writes the whole state as it is then, so
   * every change made meanwhile is in the first save that succeeds.
   */
  changed(): void {
    if (!this.location || this.#timer || this.#disposed) return;
    this.#schedule(25);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#attempt();
    }, ms);
    this.#timer.unref();
  }

  #attempt(): void {
    if (this.#disposed) return;
    try {
      this.#write();
      if (this.#failures > 0) this.logger?.info({ failedSaves: this.#failures }, 'sandbox state saved again');
      this.#failures = 0;
    } catch (err) {
      this.#failures += 1;
      const retryInMs = Math.min(SAVE_RETRY_FIRST_MS * 2 ** (this.#failures - 1), SAVE_RETRY_MAX_MS);
      this.logger?.warn(
        { err, failedSaves: this.#failures, retryInMs },
        'sandbox state not saved (its changes are kept in memory); retrying',
      );
      this.#schedule(retryInMs);
    }
  }

  /**
   * Saves now, once (at shutdown); false when that failed, which is logged: the changes since the
   * last save that succeeded are then lost with the process.
   */
  flush(): boolean {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.location) return true;
    try {
      this.#write();
      return true;
    } catch (err) {
      this.logger?.error(
        { err },
        'sandbox state not saved at shutdown: changes since the last save are lost',
      );
      return false;
    }
  }

  /** This state is replaced (a reset): it never saves again, so it cannot overwrite its successor. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Writes a temporary file and renames it over the state (atomic); on failure, removes it. */
  #write(): void {
    if (!this.location) return;
    const tmp = `${this.location}.${process.pid}.tmp`;
    try {
      // Issued tokens and codes: owner-only, like the gateway's own data.
      privateDir(path.dirname(this.location));
      writeFileSync(tmp, JSON.stringify(this.file), { mode: PRIVATE_FILE_MODE });
      renameSync(tmp, this.location);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }
}
