/**
 * The gateway's own secrets: the API key for private paths and the token-encryption keyring.
 * Taken from the environment when given; otherwise generated once into the data dir (mode 0600)
 * and reused, so a restart keeps working. The API key is only ever compared by hash.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keyring, type KeySource, type Keyring } from './oauth/vault.js';

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

export function readKeyFile(file: string): KeyFileEntry[] {
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as KeyFileEntry[];
}

export function writeKeyFile(file: string, entries: KeyFileEntry[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(entries, null, 2) + '\n', { mode: 0o600 });
}

export function loadSecrets(opts: {
  dataDir: string;
  apiKey: string | undefined;
  encryptionKey: string | undefined;
}): GatewaySecrets {
  mkdirSync(opts.dataDir, { recursive: true });
  let generatedApiKey: string | undefined;
  let apiKey = opts.apiKey;
  if (!apiKey) {
    const file = path.join(opts.dataDir, 'api-key');
    if (existsSync(file)) apiKey = readFileSync(file, 'utf8').trim();
    else {
      apiKey = `fg_${randomBytes(24).toString('base64url')}`;
      writeFileSync(file, apiKey + '\n', { mode: 0o600 });
      generatedApiKey = apiKey;
    }
  }
  const keyFile = path.join(opts.dataDir, 'encryption-keys.json');
  const entries = readKeyFile(keyFile);
  if (!opts.encryptionKey && entries.length === 0) {
    const key = randomBytes(32);
    entries.push({ id: '', key: key.toString('base64'), createdAt: new Date().toISOString() });
    writeKeyFile(keyFile, entries);
  }
  const ringFromDisk = () => {
    // Keys from the file still decrypt; the configured key (or the newest file key) encrypts.
    const keys = readKeyFile(keyFile).map((e) => Buffer.from(e.key, 'base64'));
    if (opts.encryptionKey) keys.push(Buffer.from(opts.encryptionKey, 'base64'));
    return keyring(keys);
  };
  let ring = ringFromDisk();
  const keys: KeySource = {
    current: () => ring,
    reload: () => {
      ring = ringFromDisk();
    },
  };
  return { generatedApiKey, apiKey, apiKeyHash: sha256(apiKey), keyring: ring, keys, keyFile };
}
