/**
 * The dashboard session cookie: a token `<expiresAt>.<nonce>.<sig>`, where sig is HMAC-SHA256
 * over `<expiresAt>.<nonce>` with a key derived from the API key hash, so a forged or foreign
 * cookie is refused without a query and changing the key refuses every old cookie. A valid
 * token is not yet a session: sessions.ts also asks the store, which signing out empties.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'fg_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface Session {
  nonce: string;
  expiresAt: number;
}

export type KeyPurpose = 'session' | 'csrf' | 'flash';

const derived = new WeakMap<Buffer, Map<KeyPurpose, Buffer>>();

/** One key per purpose, so a token minted for one use can never pass as another. */
export function derivedKey(apiKeyHash: Buffer, purpose: KeyPurpose): Buffer {
  let keys = derived.get(apiKeyHash);
  if (!keys) derived.set(apiKeyHash, (keys = new Map<KeyPurpose, Buffer>()));
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', apiKeyHash, 'fleetgate-dashboard', `${purpose}-v1`, 32));
    keys.set(purpose, key);
  }
  return key;
}

export const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');

/** Constant-time equality of two strings (lengths are not secret here: both are fixed-size MACs). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function issueSession(apiKeyHash: Buffer, now: number): { token: string; session: Session } {
  const session = { nonce: randomBytes(16).toString('base64url'), expiresAt: now + SESSION_TTL_MS };
  const body = `${session.expiresAt}.${session.nonce}`;
  return { token: `${body}.${hmac(derivedKey(apiKeyHash, 'session'), body)}`, session };
}

const TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** The session a cookie value stands for, or undefined when it is absent, forged or expired. */
export function verifySession(
  apiKeyHash: Buffer,
  token: string | undefined,
  now: number,
): Session | undefined {
  const m = token ? TOKEN.exec(token) : null;
  if (!m?.[1] || !m[2] || !m[3]) return undefined;
  const expected = hmac(derivedKey(apiKeyHash, 'session'), `${m[1]}.${m[2]}`);
  if (!safeEqual(m[3], expected)) return undefined;
  const expiresAt = Number(m[1]);
  return expiresAt > now ? { nonce: m[2], expiresAt } : undefined;
}
