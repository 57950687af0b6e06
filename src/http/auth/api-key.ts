/**
 * Gateway auth: `Authorization: Bearer <FLEETGATE_API_KEY>` on every private /api/video path
 * (the OAuth callback and the webhook intake authenticate otherwise), or the dashboard's session
 * cookie. The key is compared by hash in constant time; failures answer 401 in the one error shape.
 * A cookie rides along on cross-site requests too, so it only counts for reads, or for writes
 * that also carry the session's CSRF token; and only while its session lives in the store
 * (auth/sessions.ts), so a signed-out cookie is refused on every instance.
 */
import type { FastifyRequest } from 'fastify';
import { apiKeyMatches } from '../../gateway/secrets.js';
import { CSRF_HEADER, csrfValid } from './csrf.js';
import type { DashboardSessions } from './sessions.js';
import { AppError } from '../errors.js';

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

/** Each request's verdict on its Authorization header, by its raw request (one per HTTP request). */
const verdicts = new WeakMap<object, boolean>();

/**
 * Whether the request's Authorization header carries the API key; undefined without one. The
 * limiter, the lockout and the key check all ask; the key is hashed and compared once per request.
 */
export function requestKeyValid(
  secrets: { apiKeyHash: Buffer },
  req: { raw?: object; headers: { authorization?: string | undefined } },
): boolean | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  if (!req.raw) return bearerKeyValid(secrets, h);
  let v = verdicts.get(req.raw);
  if (v === undefined) {
    v = bearerKeyValid(secrets, h);
    verdicts.set(req.raw, v);
  }
  return v;
}

/**
 * What the key check needs: the API key's hash, and the dashboard's sessions for requests that
 * come with its cookie instead (without them, a cookie never authenticates).
 */
export interface Credentials {
  apiKeyHash: Buffer;
  sessions?: DashboardSessions;
}

export function requireApiKey(credentials: Credentials) {
  return async (req: FastifyRequest): Promise<void> => {
    const valid = requestKeyValid(credentials, req);
    if (valid !== undefined) {
      // A presented key decides alone: a wrong key is refused even beside a valid cookie.
      if (!valid) throw unauthorized();
      return;
    }
    const session = await credentials.sessions?.of(req);
    if (!session) throw unauthorized();
    if (SAFE_METHODS.has(req.method) || csrfValid(credentials.apiKeyHash, session, req.headers[CSRF_HEADER]))
      return;
    throw new AppError(
      403,
      'csrf_token_required',
      `A request authenticated by the dashboard session must send its CSRF token as ${CSRF_HEADER}.`,
    );
  };
}
