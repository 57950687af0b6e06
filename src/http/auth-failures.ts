/**
 * Failed authentications per client address: the count behind the lockout that stops key
 * guessing (rate-limit.ts). Once an address has failed `max` times in a window, it is locked out
 * until the window ends; the window starts at its first failure and is not extended by more.
 * In memory, or in Redis (REDIS_URL) so every instance counts one address together. If Redis
 * fails, nothing is locked out (availability over strictness, as for the request budgets;
 * main.ts logs the Redis client's errors).
 */
import type { Redis } from 'ioredis';

export interface Lockout {
  /** Until the window ends. */
  retryAfterMs: number;
}

export interface AuthFailures {
  readonly max: number;
  /** The lockout in force for this address, if any; counts nothing. */
  check(ip: string): Promise<Lockout | undefined>;
  /** Counts one failure; the lockout if this one is past the limit (atomic across instances). */
  fail(ip: string): Promise<Lockout | undefined>;
}

/** Beyond this many addresses in memory, expired windows are swept, then the oldest dropped. */
const MEMORY_CAP = 50_000;

export function memoryFailures(max: number, windowMs: number, now = Date.now): AuthFailures {
  const counts = new Map<string, { n: number; resetAt: number }>();
  const live = (ip: string) => {
    const c = counts.get(ip);
    if (c && c.resetAt <= now()) {
      counts.delete(ip);
      return undefined;
    }
    return c;
  };
  // Windows are inserted in the order they end (Map keeps insertion order), so the expired ones
  // are at the front. A flood of fresh addresses drops the oldest tenth at once: the cost of a
  // sweep is paid once per 5,000 new addresses, not on each.
  const sweep = () => {
    const t = now();
    for (const [ip, c] of counts) {
      if (c.resetAt > t && counts.size <= MEMORY_CAP * 0.9) break;
      counts.delete(ip);
    }
  };
  const lockout = (c: { resetAt: number }) => ({ retryAfterMs: Math.max(1, c.resetAt - now()) });
  return {
    max,
    check(ip) {
      const c = live(ip);
      return Promise.resolve(c && c.n >= max ? lockout(c) : undefined);
    },
    fail(ip) {
      let c = live(ip);
      if (!c) {
        if (counts.size >= MEMORY_CAP) sweep();
        counts.set(ip, (c = { n: 0, resetAt: now() + windowMs }));
      }
      c.n += 1;
      return Promise.resolve(c.n > max ? lockout(c) : undefined);
    },
  };
}

// INCR and the window's expiry in one step, so concurrent failures on any instance are counted
// exactly and the window is set once, by the first failure.
const FAIL_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

export function redisFailures(redis: Redis, prefix: string, max: number, windowMs: number): AuthFailures {
  const key = (ip: string) => `${prefix}:authfail:${ip}`;
  const lockout = (ttl: number) => ({ retryAfterMs: Math.max(1, ttl > 0 ? ttl : windowMs) });
  return {
    max,
    async check(ip) {
      try {
        const r = await redis.pipeline().get(key(ip)).pttl(key(ip)).exec();
        const n = Number(r?.[0]?.[1] ?? 0);
        return n >= max ? lockout(Number(r?.[1]?.[1] ?? -1)) : undefined;
      } catch {
        return undefined;
      }
    },
    async fail(ip) {
      try {
        const [n, ttl] = (await redis.eval(FAIL_SCRIPT, 1, key(ip), String(windowMs))) as [number, number];
        return n > max ? lockout(ttl) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
