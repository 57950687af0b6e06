/**
 * When a platform call is tried again, and after how long: the statuses worth another attempt,
 * Retry-After read as seconds or a date, and exponential backoff with full jitter (so callers
 * that failed together do not come back together).
 */

export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
/** A 429 without Retry-After waits at least this: a per-second window cannot reopen sooner. */
const MIN_429_WAIT_MS = 1000;

/** Retry-After as seconds or as an HTTP/ISO date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The n-th attempt's delay: a random share of base·2^(n-1), capped at max. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const cap = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.floor(random() * cap);
}

/** Without Retry-After (the platform often omits it), back off, never under a 429's window. */
export const pacedBackoffMs = (status: number, backoff: number) =>
  status === 429 ? Math.max(MIN_429_WAIT_MS, backoff) : backoff;
