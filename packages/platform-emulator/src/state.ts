/**
 * The emulator's whole state: issued codes and tokens, and one data slice per API group.
 * It is kept in memory and written to the data dir (atomically, shortly after each change), so
 * a restart keeps issued tokens valid and API-created objects in place.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

export class SandboxState {
  #timer: NodeJS.Timeout | undefined;
  constructor(
    public file: StateFile,
    private readonly location: string | undefined,
  ) {}

  static load(dataDir: string | undefined): SandboxState | undefined {
    const location = dataDir ? path.join(dataDir, 'sandbox-state.json') : undefined;
    if (!location || !existsSync(location)) return undefined;
    try {
      const parsed = JSON.parse(readFileSync(location, 'utf8')) as StateFile;
      return parsed.version === 1 ? new SandboxState(parsed, location) : undefined;
    } catch {
      return undefined;
    }
  }

  static fresh(dataDir: string | undefined, anchor: string, slices: Record<string, unknown>): SandboxState {
    const location = dataDir ? path.join(dataDir, 'sandbox-state.json') : undefined;
    return new SandboxState({ version: 1, anchor, access: {}, refresh: {}, codes: {}, slices }, location);
  }

  slice<T>(name: string): T {
    return this.file.slices[name] as T;
  }

  /** Schedules a write; many changes in a burst cost one write. */
  changed(): void {
    if (!this.location || this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), 25);
    this.#timer.unref();
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.location) return;
    // Issued tokens and codes: owner-only, like the gateway's own data.
    privateDir(path.dirname(this.location));
    const tmp = `${this.location}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.file), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, this.location);
  }
}
