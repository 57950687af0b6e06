/**
 * Rate budgets shared by every instance through Redis, since the platform's limits are per
 * account, not per process. Fixed windows: one counter per label per window, expiring with it.
 * The daily quotas' counts (RedisDailyUsage) live here too, one hash per UTC day.
 * When Redis cannot be reached the call goes ahead (the platform's own 429s, which the client
 * handles, are the backstop), and the local headroom view stays approximate.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DailyCharge, DailyUsageRow, DailyUsageStore } from '../../store/store.js';
import type { BudgetKeeper, RateLabel } from './budget.js';

export class RedisBudgets implements BudgetKeeper {
  readonly shared = true;
  #last = new Map<RateLabel, { window: number; count: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly limits: Record<RateLabel, { limit: number; windowMs: number }>,
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly prefix = 'fleetgate:budget',
  ) {}

  async reserve(label: RateLabel): Promise<number> {
    const { limit, windowMs } = this.limits[label];
    // Try this window, then the next ones, until a slot is found (bounded).
    for (let ahead = 0; ahead < 60; ahead++) {
      const window = Math.floor(this.now() / windowMs) + ahead;
      const key = `${this.prefix}:${label}:${window}`;
      let count: number;
      try {
        const r = await this.redis
          .multi()
          .incr(key)
          .pexpire(key, windowMs * (ahead + 2))
          .exec();
        count = Number(r?.[0]?.[1] ?? 0);
      } catch (err) {
        this.logger.warn(
          { err: (err as Error).message },
          'shared rate budget unavailable; not pacing this call',
        );
        return 0;
      }
      if (ahead === 0) this.#last.set(label, { window, count });
      if (count <= limit) return Math.max(0, window * windowMs - this.now());
    }
    return 60 * windowMs;
  }

  headroom(): Record<RateLabel, { limit: number; windowMs: number; available: number }> {
    const out = {} as Record<RateLabel, { limit: number; windowMs: number; available: number }>;
    for (const [label, { limit, windowMs }] of Object.entries(this.limits) as [
      RateLabel,
      { limit: number; windowMs: number },
    ][]) {
      const last = this.#last.get(label);
      const current = last && last.window === Math.floor(this.now() / windowMs) ? last.count : 0;
      out[label] = { limit, windowMs, available: Math.max(0, limit - current) };
    }
    return out;
  }
}

/** A day's counts outlive the day, for the monitor's view across the reset. */
const DAY_TTL_SECONDS = 2 * 86_400;

/**
 * Checks every charge, then counts them all, atomically: KEYS[1] is the day's hash (field
 * `quota|subject` = uses, `quota|subject|x` = spent by the platform's word); ARGV[1] is the
 * number of charges, then per charge its field and its limit (-1 = none), then the TTL.
 * Returns 0, or the 1-based charge that has nothing left.
 */
const TAKE_SCRIPT = `
local n = tonumber(ARGV[1])
for i = 1, n do
  local field = ARGV[2 * i]
  local limit = tonumber(ARGV[2 * i + 1])
  if redis.call('HEXISTS', KEYS[1], field .. '|x') == 1 then return i end
  if limit >= 0 and tonumber(redis.call('HGET', KEYS[1], field) or '0') >= limit then return i end
end
for i = 1, n do redis.call('HINCRBY', KEYS[1], ARGV[2 * i], 1) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2 * n + 2]))
return 0`;

/**
 * Daily quota counts shared by every instance through Redis: one hash per UTC day, expiring
 * two days later (so no pruning is needed). Errors reach DailyQuotas, which lets the call go.
 */
export class RedisDailyUsage implements DailyUsageStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'fleetgate:daily',
  ) {}

  #key(day: string): string {
    return `${this.prefix}:${day}`;
  }

  async take(day: string, charges: DailyCharge[]): Promise<DailyCharge | undefined> {
    const args: (string | number)[] = [charges.length];
    for (const c of charges) args.push(`${c.quota}|${c.subject}`, c.limit ?? -1);
    args.push(DAY_TTL_SECONDS);
    const r = Number(await this.redis.eval(TAKE_SCRIPT, 1, this.#key(day), ...args));
    return r === 0 ? undefined : charges[r - 1];
  }

  async add(day: string, quota: string, subject: string, n: number): Promise<void> {
    await this.redis
      .multi()
      .hincrby(this.#key(day), `${quota}|${subject}`, n)
      .expire(this.#key(day), DAY_TTL_SECONDS)
      .exec();
  }

  async exhaust(day: string, quota: string, subject: string): Promise<void> {
    await this.redis
      .multi()
      .hset(this.#key(day), `${quota}|${subject}|x`, '1')
      .expire(this.#key(day), DAY_TTL_SECONDS)
      .exec();
  }

  async usage(day: string): Promise<DailyUsageRow[]> {
    const all = await this.redis.hgetall(this.#key(day));
    const rows = new Map<string, DailyUsageRow>();
    for (const [field, value] of Object.entries(all)) {
      const spent = field.endsWith('|x');
      const id = spent ? field.slice(0, -2) : field;
      const bar = id.indexOf('|');
      const row = rows.get(id) ?? {
        quota: id.slice(0, bar),
        subject: id.slice(bar + 1),
        used: 0,
        exhausted: false,
      };
      if (spent) row.exhausted = true;
      else row.used = Number(value);
      rows.set(id, row);
    }
    return [...rows.values()];
  }

  /** Nothing to do: each day's hash expires by itself. */
  prune(): Promise<number> {
    return Promise.resolve(0);
  }
}
