/**
 * CSRF tokens bound to a dashboard session: an HMAC of the session's nonce. Every dashboard
 * form carries one in a hidden field, and a cookie-authenticated API write must send it as
 * `x-csrf-token`; a cross-site page can make the browser send the cookie, never the token.
 */
import { derivedKey, hmac, safeEqual, type Session } from './session.js';

export const CSRF_FIELD = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

export const csrfToken = (apiKeyHash: Buffer, session: Session): string =>
  hmac(derivedKey(apiKeyHash, 'csrf'), session.nonce);

export function csrfValid(apiKeyHash: Buffer, session: Session, presented: unknown): boolean {
  return typeof presented === 'string' && safeEqual(presented, csrfToken(apiKeyHash, session));
}
