/**
 * `fleetgate rotate-key`: adds a new token-encryption key to the data dir and re-encrypts every
 * sealed value under it, online: a running instance still decrypts with the older keys, and
 * picks the new key up the first time it meets a value sealed with it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseConfig } from '../config.js';
import { keyId, keyring, open, seal } from '../gateway/oauth/vault.js';
import { readKeyFile, writeKeyFile } from '../gateway/secrets.js';
import { subscriptionSecretAad } from '../gateway/webhooks-out/subscriptions.js';
import { createStore } from '../store/create-store.js';

export async function rotateKey(): Promise<number> {
  const config = parseConfig(process.env);
  const keyFile = path.join(config.dataDir, 'encryption-keys.json');
  const entries = readKeyFile(keyFile);
  if (config.encryptionKey && !entries.some((e) => e.key === config.encryptionKey)) {
    // Keep the configured key so values it sealed stay readable after the rotation.
    entries.push({
      id: keyId(Buffer.from(config.encryptionKey, 'base64')),
      key: config.encryptionKey,
      createdAt: new Date().toISOString(),
    });
  }
  const fresh = randomBytes(32);
  const old = keyring(entries.map((e) => Buffer.from(e.key, 'base64')));
  entries.push({ id: keyId(fresh), key: fresh.toString('base64'), createdAt: new Date().toISOString() });
  writeKeyFile(keyFile, entries);
  const next = keyring([...old.all.values(), fresh]);
  const store = await createStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
  });
  let count = 0;
  for (const v of await store.sealedValues()) {
    const aadFor =
      v.table === 'link'
        ? `link:${v.id}:${v.column}`
        : v.table === 'webhook_subscriptions'
          ? subscriptionSecretAad(v.id)
          : `oauth_state:${v.id}:verifier`;
    await store.rewriteSealed(v.table, v.id, v.column, seal(next, open(next, v.value, aadFor), aadFor));
    count += 1;
  }
  await store.close();
  process.stdout.write(
    `rotated: new key ${keyId(fresh)}; ${count} sealed value(s) re-encrypted; older keys kept for decryption.\n`,
  );
  if (config.encryptionKey)
    process.stdout.write(
      'FLEETGATE_ENCRYPTION_KEY is set: set it to the new key (see encryption-keys.json) or unset it, or new values keep using the old key.\n',
    );
  return 0;
}
