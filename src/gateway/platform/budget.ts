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

/**
 * The slots taken in one label's window, in time order. Expired slots leave from the front, so a
 * reservation costs O(log n) whatever the budget (a filter over the window made each call O(n):
 * measurable with the large budgets of higher platform plans and the bench).
 */
class SlotWindow {
  #times: number[] = [];
  #head = 0;

  /** Forgets slots at or before `cutoff`. */
  prune(cutoff: number): void {
    while (this.#head < this.#times.length && (this.#times[this.#head] ?? 0) <= cutoff) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  get size(): number {
    return this.#times.length - this.#head;
  }

  /** The i-th live slot, oldest first. */
  at(i: number): number | undefined {
    return this.#times[this.#head + i];
  }

  /** Adds a slot in time order (a reservation can be later than ones taken after it). */
  insert(t: number): void {
    let lo = this.#head;
    let hi = this.#times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#times[mid] ?? 0) <= t) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.#times.length) this.#times.push(t);
    else this.#times.splice(lo, 0, t);
  }

  /** Slots at or before `t` (taken, not merely reserved for later). */
  countUpTo(t: number): number {
    let n = 0;
    for (let i = this.size - 1; i >= 0 && (this.at(i) ?? 0) > t; i--) n++;
    return this.size - n;
  }
}

export class Budgets implements BudgetKeeper {
  readonly shared = false;
  #used = new Map<RateLabel, SlotWindow>();

  constructor(
    private readonly limits: Record<RateLabel, { limit: number; windowMs: number }>,
    private readonly now: () => number,
  ) {}

  reserve(label: RateLabel): Promise<number> {
    return Promise.resolve(this.reserveNow(label));
  }

  #window(label: RateLabel): SlotWindow {
    let w = this.#used.get(label);
    if (!w) {
      w = new SlotWindow();
      this.#used.set(label, w);
    }
    return w;
  }

  /** The same, synchronously (this keeper needs no I/O). */
  reserveNow(label: RateLabel): number {
    const { limit, windowMs } = this.limits[label];
    const t = this.now();
    const w = this.#window(label);
    w.prune(t - windowMs);
    let at = t;
    if (w.size >= limit) at = Math.max(t, (w.at(w.size - limit) ?? t) + windowMs);
    w.insert(at);
    return Math.max(0, at - t);
  }

  headroom(): Record<RateLabel, { limit: number; windowMs: number; available: number }> {
    const t = this.now();
    const out = {} as Record<RateLabel, { limit: number; windowMs: number; available: number }>;
    for (const [label, { limit, windowMs }] of Object.entries(this.limits) as [
      RateLabel,
      { limit: number; windowMs: number },
    ][]) {
      const w = this.#window(label);
      w.prune(t - windowMs);
      out[label] = { limit, windowMs, available: Math.max(0, limit - w.countUpTo(t)) };
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
