/**
 * Rate budgets shared by every instance through Redis, since the platform's limits are per
 * account, not per process. Fixed windows: one counter per label per window, expiring with it.
 * When Redis cannot be reached the call goes ahead (the platform's own 429s, which the client
 * handles, are the backstop), and the local headroom view stays approximate.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
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
