/**
 * `fleetgate rotate-key`: adds a new token-encryption key to the data dir and re-encrypts every
 * sealed value under it, online: a running instance still decrypts with the older keys, and
 * picks the new key up the first time it meets a value sealed with it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseConfig } from '../config.js';
import { keyId, keyring } from '../gateway/oauth/vault.js';
import { readKeyFile, writeKeyFile } from '../gateway/secrets.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/store.js';
import { resealAll, type ResealReport } from './reseal.js';

export interface RotateOptions {
  keyFile: string;
  /** FLEETGATE_ENCRYPTION_KEY, when set. */
  encryptionKey: string | undefined;
  store: Store;
  afterRead?: () => Promise<void>;
}

/** Adds a fresh key to the key file, then re-seals the store under it. */
export async function rotateKeys(o: RotateOptions): Promise<ResealReport & { keyId: string }> {
  const entries = readKeyFile(o.keyFile);
  if (o.encryptionKey && !entries.some((e) => e.key === o.encryptionKey)) {
    // Keep the configured key so values it sealed stay readable after the rotation.
    entries.push({
      id: keyId(Buffer.from(o.encryptionKey, 'base64')),
      key: o.encryptionKey,
      createdAt: new Date().toISOString(),
    });
  }
  const fresh = randomBytes(32);
  const old = keyring(entries.map((e) => Buffer.from(e.key, 'base64')));
  entries.push({ id: keyId(fresh), key: fresh.toString('base64'), createdAt: new Date().toISOString() });
  // Written first, so a running instance can read what is re-sealed under the new key.
  writeKeyFile(o.keyFile, entries);
  const next = keyring([...old.all.values(), fresh]);
  const report = await resealAll({
    store: o.store,
    ring: next,
    ...(o.afterRead ? { afterRead: o.afterRead } : {}),
  });
  return { keyId: keyId(fresh), ...report };
}

export async function rotateKey(): Promise<number> {
  const config = parseConfig(process.env);
  const store = await createStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
  });
  let done: ResealReport & { keyId: string };
  try {
    done = await rotateKeys({
      keyFile: path.join(config.dataDir, 'encryption-keys.json'),
      encryptionKey: config.encryptionKey,
      store,
    });
  } finally {
    await store.close();
  }
  process.stdout.write(
    `rotated: new key ${done.keyId}; ${done.resealed} sealed value(s) re-encrypted; older keys kept for decryption.\n`,
  );
  if (config.encryptionKey)
    process.stdout.write(
      'FLEETGATE_ENCRYPTION_KEY is set: set it to the new key (see encryption-keys.json) or unset it, or new values keep using the old key.\n',
    );
  if (done.unreadable.length === 0) return 0;
  // Left as they are (restoring their key makes them readable again), and reported as a failure.
  process.stderr.write(
    `fleetgate rotate-key: ${done.unreadable.length} sealed value(s) could not be decrypted and were left as they are:\n${done.unreadable
      .map(
        (u) =>
          `  ${u.table}.${u.column} (${u.id}): ${u.reason === 'key_missing' ? `key ${u.keyId} is missing` : u.reason === 'failed_authentication' ? 'altered (failed authentication)' : 'not a sealed value'}\n`,
      )
      .join('')}`,
  );
  return 1;
}
