/**
 * Per-label request budgets (the platform's Pro-plan limits by default), so the gateway paces
 * itself instead of collecting 429s, and a circuit breaker per capability group, so a platform
 * outage gets fast, clear answers instead of a pile-up of waiting requests.
 */
export type RateLabel = 'LIGHT' | 'MEDIUM' | 'HEAVY' | 'RESOURCE_INTENSIVE';

export const PRO_BUDGETS: Record<RateLabel, { limit: number; windowMs: number }> = {
  LIGHT: { limit: 30, windowMs: 1000 },
  MEDIUM: { limit: 20, windowMs: 1000 },
  HEAVY: { limit: 10, windowMs: 1000 },
  RESOURCE_INTENSIVE: { limit: 10, windowMs: 60_000 },
};

/** Paces platform calls by label; per process by default, shared through Redis when configured. */
export interface BudgetKeeper {
  /** Milliseconds to wait before a call of this label fits the budget (0 = go now); reserves the slot. */
  reserve(label: RateLabel): Promise<number>;
  headroom(): Record<RateLabel, { limit: number; windowMs: number; available: number }>;
  readonly shared: boolean;
}

export class Budgets implements BudgetKeeper {
  readonly shared = false;
  #used = new Map<RateLabel, number[]>();

  constructor(
    private readonly limits: Record<RateLabel, { limit: number; windowMs: number }>,
    private readonly now: () => number,
  ) {}

  reserve(label: RateLabel): Promise<number> {
    return Promise.resolve(this.reserveNow(label));
  }

  /** The same, synchronously (this keeper needs no I/O). */
  reserveNow(label: RateLabel): number {
    const { limit, windowMs } = this.limits[label];
    const t = this.now();
    const times = (this.#used.get(label) ?? []).filter((x) => x > t - windowMs);
    let at = t;
    if (times.length >= limit) at = (times[times.length - limit] ?? t) + windowMs;
    times.push(at);
    this.#used.set(label, times);
    return Math.max(0, at - t);
  }

  headroom(): Record<RateLabel, { limit: number; windowMs: number; available: number }> {
    const t = this.now();
    const out = {} as Record<RateLabel, { limit: number; windowMs: number; available: number }>;
    for (const [label, { limit, windowMs }] of Object.entries(this.limits) as [
      RateLabel,
      { limit: number; windowMs: number },
    ][]) {
      const used = (this.#used.get(label) ?? []).filter((x) => x > t - windowMs && x <= t).length;
      out[label] = { limit, windowMs, available: Math.max(0, limit - used) };
    }
    return out;
  }
}

export class CircuitBreaker {
  #failures = 0;
  #openUntil = 0;

  constructor(
    private readonly threshold: number,
    private readonly coolDownMs: number,
    private readonly now: () => number,
  ) {}

  /** Whether a call may go out now (a half-open breaker lets one trial through). */
  allow(): boolean {
    if (this.#openUntil === 0) return true;
    if (this.now() >= this.#openUntil) {
      this.#openUntil = this.now() + this.coolDownMs;
      return true;
    }
    return false;
  }

  get state(): 'closed' | 'open' {
    return this.#openUntil > this.now() ? 'open' : 'closed';
  }

  retryAfterMs(): number {
    return Math.max(0, this.#openUntil - this.now());
  }

  success(): void {
    this.#failures = 0;
    this.#openUntil = 0;
  }

  failure(): void {
    this.#failures += 1;
    if (this.#failures >= this.threshold) this.#openUntil = this.now() + this.coolDownMs;
  }
}
