/**
 * Gateway auth: `Authorization: Bearer <FLEETGATE_API_KEY>` on every private /api/video path
 * (the OAuth callback and the webhook intake authenticate otherwise), or the dashboard's session
 * cookie. The key is compared by hash in constant time; failures answer 401 in the one error shape.
 * A cookie rides along on cross-site requests too, so it only counts for reads, or for writes
 * that also carry the session's CSRF token.
 */
import type { FastifyRequest } from 'fastify';
import { apiKeyMatches } from '../gateway/secrets.js';
import { CSRF_HEADER, csrfValid } from '../pages/dashboard/csrf.js';
import { SESSION_COOKIE, verifySession } from '../pages/dashboard/session.js';
import { AppError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

const unauthorized = () =>
  new AppError(
    401,
    'unauthorized',
    'Send the gateway API key as Authorization: Bearer <FLEETGATE_API_KEY>.',
    undefined,
    {
      'www-authenticate': 'Bearer realm="fleetgate"',
    },
  );

/** Whether an Authorization header carries the API key as a Bearer token. */
export function bearerKeyValid(secrets: { apiKeyHash: Buffer }, header: string): boolean {
  const presented = header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  return presented !== undefined && presented !== '' && apiKeyMatches(secrets, presented);
}

export function requireApiKey(secrets: { apiKeyHash: Buffer }) {
  return (req: FastifyRequest): Promise<void> => {
    const h = req.headers.authorization;
    if (h !== undefined) {
      // A presented key decides alone: a wrong key is refused even beside a valid cookie.
      if (!bearerKeyValid(secrets, h)) return Promise.reject(unauthorized());
      return Promise.resolve();
    }
    const session = verifySession(secrets.apiKeyHash, req.cookies[SESSION_COOKIE], Date.now());
    if (!session) return Promise.reject(unauthorized());
    if (SAFE_METHODS.has(req.method) || csrfValid(secrets.apiKeyHash, session, req.headers[CSRF_HEADER])) {
      return Promise.resolve();
    }
    return Promise.reject(
      new AppError(
        403,
        'csrf_token_required',
        `A request authenticated by the dashboard session must send its CSRF token as ${CSRF_HEADER}.`,
      ),
    );
  };
}
