/**
 * The token vault's cipher: AES-256-GCM with a fresh 12-byte IV per value, additional
 * authenticated data binding each ciphertext to its row and column (a value copied into another
 * row or column fails to decrypt), and the key id stored with it, so keys can rotate online:
 * new values use the current key while older keys still decrypt.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface Keyring {
  current: { id: string; key: Buffer };
  all: Map<string, Buffer>;
}

export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

export function keyring(keys: Buffer[]): Keyring {
  if (keys.length === 0) throw new Error('keyring needs at least one key');
  for (const k of keys) if (k.length !== 32) throw new Error('encryption keys must be 32 bytes');
  const last = keys[keys.length - 1] as Buffer;
  return { current: { id: keyId(last), key: last }, all: new Map(keys.map((k) => [keyId(k), k])) };
}

/** Sealed form: `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts). */
export function seal(ring: Keyring, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    ring.current.id,
    iv.toString('base64url'),
    ct.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** Why a sealed value did not open: not sealed at all, sealed with a key we lack, or altered. */
export type VaultFailure = 'malformed' | 'key_missing' | 'failed_authentication';

export class VaultError extends Error {
  constructor(
    message: string,
    readonly reason: VaultFailure = 'malformed',
    /** The key id the value names ('' when it names none). */
    readonly keyId = '',
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

export function open(ring: Keyring, sealed: string, aad: string): string {
  const [v, id, iv, ct, tag] = sealed.split('.');
  if (v !== 'v1' || !id || iv === undefined || ct === undefined || tag === undefined)
    throw new VaultError('not a sealed value');
  const key = ring.all.get(id);
  if (!key) throw new VaultError(`no key ${id} in the keyring`, 'key_missing', id);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new VaultError('sealed value failed authentication', 'failed_authentication', id);
  }
}

/** The key id a sealed value was written with. */
export const sealedKeyId = (sealed: string) => sealed.split('.')[1] ?? '';

/** Where the gateway gets its keys; reload() picks up a key added by `fleetgate rotate-key`. */
export interface KeySource {
  current(): Keyring;
  reload(): void;
}

/** Opens with any known key; on an unknown key id, reloads the keys once (a rotation happened). */
export function openAny(src: KeySource, sealed: string, aad: string): string {
  try {
    return open(src.current(), sealed, aad);
  } catch (err) {
    if (!(err instanceof VaultError) || src.current().all.has(sealedKeyId(sealed))) throw err;
    src.reload();
    return open(src.current(), sealed, aad);
  }
}
