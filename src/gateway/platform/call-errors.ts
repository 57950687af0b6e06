/**
 * The error shapes of a platform call, and the map from the platform's answers to them: the
 * platform's status, code and message are kept in `details` (PlatformFacts), so a caller sees
 * our code and what the platform said. Pure functions; the client decides when each applies.
 */
import { AppError } from '../../core/errors.js';
import type { RateLabel } from './budget.js';

/** What the platform answered, as every mapped error carries it in `details`. */
export interface PlatformFacts {
  platformStatus: number;
  platformCode: unknown;
  platformMessage: string | null;
}

interface PlatformBody {
  code?: unknown;
  message?: unknown;
}

/** A platform error body, or {} when it is not JSON. */
function parseBody(text: string): PlatformBody {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}

/** The platform's status, code and message from an answer that was not ok. */
export function platformFacts(status: number, text: string): PlatformFacts {
  const body = parseBody(text);
  return {
    platformStatus: status,
    platformCode: body.code ?? null,
    platformMessage: typeof body.message === 'string' ? body.message : null,
  };
}

/**
 * Whether a 429 is the platform's daily limit: its `X-RateLimit-Type: Daily-limit`, or, as the
 * headers are often missing, its message ("…maximum daily rate limit…", "…exceeded the daily
 * rate limit (100) of Meeting Create/Update API requests…").
 */
export function dailyLimitHit(type: string | null, message: string | null): 'user' | 'account' | undefined {
  const daily = /daily/i.test(type ?? '') || /daily rate limit/i.test(message ?? '');
  if (!daily) return undefined;
  return /particular user|Meeting Create\/Update/i.test(message ?? '') ? 'user' : 'account';
}

/** The socket error code under a failed request (ECONNREFUSED…), if any. */
export function causeCode(err: unknown): string | undefined {
  const c = (err as { cause?: { code?: unknown } }).cause;
  return typeof c?.code === 'string' ? c.code : undefined;
}

export const isTimeout = (err: unknown) =>
  (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';

/** The breaker of a group is open: calls wait for it to try again. */
export const circuitOpenError = (group: string, retryAfterMs: number) =>
  new AppError(
    503,
    'upstream_unavailable',
    `The platform is failing for ${group}; calls are paused briefly.`,
    { group },
    { 'retry-after': String(Math.ceil(retryAfterMs / 1000) || 1) },
  );

/** The label's budget would make the call wait longer than the gateway waits. */
export const budgetSpentError = (label: RateLabel, waitMs: number) =>
  new AppError(
    503,
    'upstream_rate_limited',
    `The ${label} budget for the platform is spent; try again shortly.`,
    { label },
    { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  );

/** No answer: the attempt timed out (504) or never reached the platform (502). */
export const unansweredError = (err: unknown, timedOut: boolean, group: string) =>
  timedOut
    ? new AppError(504, 'upstream_timeout', 'The platform did not answer in time.', { group })
    : new AppError(502, 'upstream_error', 'The platform could not be reached.', {
        group,
        cause: causeCode(err) ?? (err as Error).name,
      });

/** A 429 (pacing: 503 with the platform's Retry-After, at least 1 s) or a 5xx (502). */
export const retryableError = (
  status: number,
  platform: PlatformFacts,
  group: string,
  afterMs: number | undefined,
) =>
  status === 429
    ? new AppError(
        503,
        'upstream_rate_limited',
        'The platform rate limit was reached; try again later.',
        { group, ...platform },
        { 'retry-after': String(Math.max(1, Math.ceil((afterMs ?? 1000) / 1000))) },
      )
    : new AppError(502, 'upstream_error', 'The platform failed to answer.', { group, ...platform });

/** The scopes a 4711/4700 message names ("…scopes:[a, b]…"). */
const scopesIn = (msg: string) =>
  /scopes:\[([^\]]*)\]/
    .exec(msg)?.[1]
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

/** Any other answer that was not ok, as our error: the map step's last case. */
export function mappedError(status: number, platform: PlatformFacts, group: string): AppError {
  const msg = platform.platformMessage ?? '';
  if (platform.platformCode === 4711 || platform.platformCode === 4700) {
    const scope = scopesIn(msg);
    return new AppError(
      403,
      'missing_scope',
      `The linked app lacks the scope${scope.length > 1 ? 's' : ''} ${scope.join(', ') || 'this call needs'}; add ${scope.length > 1 ? 'them' : 'it'} to the app and link again.`,
      { group, scopes: scope, ...platform },
    );
  }
  if (status === 401)
    return new AppError(
      409,
      'needs_relink',
      'The platform no longer accepts our token; link the account again.',
      { group, ...platform },
    );
  if (status === 404)
    return new AppError(404, 'not_found', msg || 'The platform has no such resource.', {
      group,
      ...platform,
    });
  if (status === 403)
    return new AppError(403, 'upstream_forbidden', msg || 'The platform refused access.', {
      group,
      ...platform,
    });
  if (status === 409)
    return new AppError(409, 'conflict', msg || 'The platform reported a conflict.', {
      group,
      ...platform,
    });
  if (status === 400 && platform.platformCode === 200)
    return new AppError(402, 'no_license', msg || 'The account lacks the licence for this.', {
      group,
      ...platform,
    });
  if (status === 400)
    return new AppError(400, 'upstream_rejected', msg || 'The platform rejected the request.', {
      group,
      ...platform,
    });
  return new AppError(502, 'upstream_error', 'The platform failed to answer.', { group, ...platform });
}
