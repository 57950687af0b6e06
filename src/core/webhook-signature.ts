/**
 * Standard Webhooks signing: secrets are `whsec_` + base64 of random bytes; the signature of an
 * attempt is `v1,` + base64 HMAC-SHA256, keyed with the decoded secret, over
 * `${webhook-id}.${webhook-timestamp}.${body}`. Neutral: config.ts checks FLEETGATE_WEBHOOK_SECRET
 * with it, and the gateway's outgoing webhooks (webhooks-out/) make secrets and sign with it.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A usable secret: the prefix, then base64 of 24 to 64 bytes (the spec's bounds). */
export function isSecret(value: string): boolean {
  if (!value.startsWith(PREFIX)) return false;
  const b64 = value.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  const n = Buffer.from(b64, 'base64').length;
  return n >= 24 && n <= 64;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
