/**
 * The gateway's own secrets: the API key for private paths and the token-encryption keyring.
 * Taken from the environment when given; otherwise generated once into the data dir (mode 0600)
 * and reused, so a restart keeps working. The API key is only ever compared by hash.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateDir } from '../core/private-files.js';
import { keyId, keyring, type KeySource, type Keyring } from './oauth/vault.js';

export interface GatewaySecrets {
  keys: KeySource;
  /** Set only on the start that generated the key, so it is printed exactly once. */
  generatedApiKey: string | undefined;
  /** In memory only (sandbox autolink calls our own API with it); never logged or stored again. */
  apiKey: string;
  apiKeyHash: Buffer;
  keyring: Keyring;
  keyFile: string;
}

// crypto.hash: one call, no Hash object (half the cost of createHash for a key this size).
const sha256 = (v: string) => hash('sha256', v, 'buffer');

/** Constant-time check of a presented key against the stored hash. */
export function apiKeyMatches(secrets: { apiKeyHash: Buffer }, presented: string): boolean {
  return timingSafeEqual(sha256(presented), secrets.apiKeyHash);
}

interface KeyFileEntry {
  id: string;
  key: string;
  createdAt: string;
}

/** Changes whenever the key file is rewritten (rotate-key adding or retiring a key). */
function fileStamp(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '';
}

export function readKeyFile(file: string): KeyFileEntry[] {
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as KeyFileEntry[];
}

/** Replaces the file whole (write, then rename), so a running instance never reads half of it. */
export function writeKeyFile(file: string, entries: KeyFileEntry[]): void {
  privateDir(path.dirname(file));
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, JSON.stringify(entries, null, 2) + '\n', { mode: 0o600 });
  renameSync(next, file);
}

/** The API key file in the data dir (written on the first start when no key is configured). */
export const apiKeyFile = (dataDir: string) => path.join(dataDir, 'api-key');

/** The key an earlier start generated into the data dir, if any. */
export function storedApiKey(dataDir: string): string | undefined {
  const file = apiKeyFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

export function loadSecrets(opts: {
  dataDir: string;
  apiKey: string | undefined;
  encryptionKey: string | undefined;
}): GatewaySecrets {
  privateDir(opts.dataDir);
  let generatedApiKey: string | undefined;
  let apiKey = opts.apiKey ?? storedApiKey(opts.dataDir);
  if (apiKey === undefined) {
    apiKey = `fg_${randomBytes(24).toString('base64url')}`;
    writeFileSync(apiKeyFile(opts.dataDir), apiKey + '\n', { mode: 0o600 });
    generatedApiKey = apiKey;
  }
  const keyFile = path.join(opts.dataDir, 'encryption-keys.json');
  const entries = readKeyFile(keyFile);
  if (!opts.encryptionKey && entries.length === 0) {
    const key = randomBytes(32);
    entries.push({ id: keyId(key), key: key.toString('base64'), createdAt: new Date().toISOString() });
    writeKeyFile(keyFile, entries);
  }
  const ringFromDisk = () => {
    // Keys from the file still decrypt; the configured key (or the newest file key) encrypts.
    const keys = readKeyFile(keyFile).map((e) => Buffer.from(e.key, 'base64'));
    if (opts.encryptionKey) keys.push(Buffer.from(opts.encryptionKey, 'base64'));
    return keyring(keys);
  };
  let stamp = fileStamp(keyFile);
  let ring = ringFromDisk();
  const reload = () => {
    stamp = fileStamp(keyFile);
    ring = ringFromDisk();
  };
  const keys: KeySource = {
    // A stat per use: after a rotation, new values are sealed under the new key at once, never
    // under the older one an operator may retire next.
    current: () => {
      if (fileStamp(keyFile) !== stamp) {
        try {
          reload();
        } catch {
          // An unreadable file (edited by hand?) leaves the keys we hold; the next use tries again.
          stamp = '';
        }
      }
      return ring;
    },
    reload,
  };
  return { generatedApiKey, apiKey, apiKeyHash: sha256(apiKey), keyring: ring, keys, keyFile };
}
