/**
 * `fleetgate rotate-key --retire <keyId>`: removes an older token-encryption key from the data
 * dir's key file once nothing in the store is sealed with it. Never the current key (the one
 * FLEETGATE_ENCRYPTION_KEY names, else the newest in the file), nor the newest in the file: those
 * seal new values. A key still in use is kept and the values using it are named.
 */
import path from 'node:path';
import { parseConfig } from '../config.js';
import { keyId, sealedKeyId } from '../gateway/oauth/vault.js';
import { readKeyFile, writeKeyFile } from '../gateway/secrets.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/store.js';

export class RetireRefused extends Error {}

export interface RetireOptions {
  keyFile: string;
  encryptionKey: string | undefined;
  store: Store;
  keyId: string;
}

/** Retires the key, or throws RetireRefused saying why not; returns the key ids kept. */
export async function retireKey(o: RetireOptions): Promise<{ kept: string[] }> {
  const entries = readKeyFile(o.keyFile).map((e) => ({ ...e, id: keyId(Buffer.from(e.key, 'base64')) }));
  const ids = entries.map((e) => e.id);
  const configured = o.encryptionKey ? keyId(Buffer.from(o.encryptionKey, 'base64')) : undefined;
  const current = configured ?? ids.at(-1);
  if (o.keyId === current || o.keyId === ids.at(-1))
    throw new RetireRefused(
      `key ${o.keyId} is the current key (it seals new values); rotate to a new key first, then retire this one`,
    );
  if (!ids.includes(o.keyId))
    throw new RetireRefused(
      `no key ${o.keyId} in ${o.keyFile}; its keys are ${ids.join(', ') || 'none'}${current ? ` (current: ${current})` : ''}`,
    );
  const using = (await o.store.sealedValues()).filter((v) => sealedKeyId(v.value) === o.keyId);
  if (using.length > 0) {
    const where = [...new Set(using.map((v) => `${v.table}.${v.column}`))].join(', ');
    throw new RetireRefused(
      `${using.length} sealed value(s) still use key ${o.keyId}: ${where}; run fleetgate rotate-key to re-seal them under a new key, then retire this one`,
    );
  }
  // Read again right before writing, so a key added meanwhile (another rotation) is kept.
  const latest = readKeyFile(o.keyFile).filter((e) => keyId(Buffer.from(e.key, 'base64')) !== o.keyId);
  writeKeyFile(o.keyFile, latest);
  return { kept: latest.map((e) => keyId(Buffer.from(e.key, 'base64'))) };
}

export async function retireKeyCommand(id: string): Promise<number> {
  const config = parseConfig(process.env);
  const store = await createStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
  });
  try {
    const { kept } = await retireKey({
      keyFile: path.join(config.dataDir, 'encryption-keys.json'),
      encryptionKey: config.encryptionKey,
      store,
      keyId: id,
    });
    process.stdout.write(`retired key ${id}; kept ${kept.join(', ')}.\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof RetireRefused)) throw err;
    process.stderr.write(`fleetgate rotate-key: not retired: ${err.message}.\n`);
    return 1;
  } finally {
    await store.close();
  }
}
