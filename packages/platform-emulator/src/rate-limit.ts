/**
 * The platform's rate limits on the Pro plan, per account: per-second (per-minute for
 * resource-intensive) windows by label, daily caps by label where the plan has them (on paid
 * plans Heavy and Resource-intensive share one daily quota), and the per-user cap on meeting
 * creates, updates and deletes. Daily counts reset at 00:00 UTC by the emulator's clock.
 * Exceeding one answers 429 with the platform's headers and body.
 */
import { PLATFORM_DAILY_LIMITS, type DailyLimits, type RateLabel } from './options.js';
import { ZoomError } from './zoom-error.js';

const PRO: Record<RateLabel, { limit: number; windowMs: number }> = {
  LIGHT: { limit: 30, windowMs: 1000 },
  MEDIUM: { limit: 20, windowMs: 1000 },
  HEAVY: { limit: 10, windowMs: 1000 },
  RESOURCE_INTENSIVE: { limit: 10, windowMs: 60_000 },
};
const PHONE: Record<RateLabel, { limit: number; windowMs: number }> = {
  LIGHT: { limit: 20, windowMs: 1000 },
  MEDIUM: { limit: 10, windowMs: 1000 },
  HEAVY: { limit: 5, windowMs: 1000 },
  RESOURCE_INTENSIVE: { limit: 5, windowMs: 60_000 },
};
/** Zoom Phone's shared Heavy/Resource-intensive daily cap on Pro. */
const PHONE_HEAVY_DAILY = 15_000;
const CATEGORY: Record<RateLabel, string> = {
  LIGHT: 'Light',
  MEDIUM: 'Medium',
  HEAVY: 'Heavy',
  RESOURCE_INTENSIVE: 'Resource-intensive',
};
const POOL: Record<RateLabel, 'light' | 'medium' | 'heavy'> = {
  LIGHT: 'light',
  MEDIUM: 'medium',
  HEAVY: 'heavy',
  RESOURCE_INTENSIVE: 'heavy',
};

export class RateLimiter {
  #windows = new Map<string, { start: number; count: number }>();
  #daily = new Map<string, number>();

  constructor(
    private readonly now: () => Date,
    private readonly limits: DailyLimits = PLATFORM_DAILY_LIMITS,
  ) {}

  /** Counts one call; throws the platform's 429 when a limit is exceeded. */
  hit(accountId: string, label: RateLabel, product: 'phone' | undefined): void {
    const table = product === 'phone' ? PHONE : PRO;
    const rule = table[label];
    const t = this.now().getTime();
    const key = `${accountId}:${product ?? 'api'}:${label}`;
    const w = this.#windows.get(key);
    if (!w || t - w.start >= rule.windowMs) this.#windows.set(key, { start: t, count: 1 });
    else if (++w.count > rule.limit) {
      throw new ZoomError(
        429,
        429,
        'You have reached the maximum per-second rate limit for this API. Try again later.',
        {
          'X-RateLimit-Category': CATEGORY[label],
          'X-RateLimit-Type': 'QPS',
        },
      );
    }
    const pool = POOL[label];
    const cap =
      product === 'phone' && pool === 'heavy' ? (this.limits.heavy ?? PHONE_HEAVY_DAILY) : this.limits[pool];
    if (cap === null) return;
    this.#countDay(`${accountId}:${product ?? 'api'}:${pool}`, cap, (retryAfter) => {
      return new ZoomError(
        429,
        429,
        'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
        dailyHeaders(CATEGORY[label], cap, retryAfter),
      );
    });
  }

  /**
   * Counts one meeting create, update or delete against its host's daily cap; throws the
   * platform's 429 when the host has none left.
   */
  meetingWrite(userId: string): void {
    const cap = this.limits.meetingWritesPerUser;
    if (cap === null) return;
    this.#countDay(`user:${userId}:meeting_writes`, cap, (retryAfter) => {
      return new ZoomError(
        429,
        429,
        `You have exceeded the daily rate limit (${cap}) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00.`,
        dailyHeaders('Light', cap, retryAfter),
      );
    });
  }

  /** Counts one call in today's bucket unless the cap is reached (a refused call is not counted). */
  #countDay(key: string, cap: number, refuse: (retryAfter: string) => ZoomError): void {
    const day = this.now().toISOString().slice(0, 10);
    const dkey = `${key}:${day}`;
    const used = this.#daily.get(dkey) ?? 0;
    if (used >= cap) {
      const tomorrow = new Date(`${day}T00:00:00Z`);
      tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
      throw refuse(tomorrow.toISOString().replace('.000Z', 'Z'));
    }
    if (used === 0) this.#forgetBefore(day);
    this.#daily.set(dkey, used + 1);
  }

  /** Drops earlier days' buckets, so a long-running emulator does not keep every day it saw. */
  #forgetBefore(day: string): void {
    for (const k of this.#daily.keys()) if (k.slice(-10) < day) this.#daily.delete(k);
  }

  reset(): void {
    this.#windows.clear();
    this.#daily.clear();
  }
}

function dailyHeaders(category: string, cap: number, retryAfter: string): Record<string, string> {
  return {
    'X-RateLimit-Category': category,
    'X-RateLimit-Type': 'Daily-limit',
    'X-RateLimit-Limit': String(cap),
    'X-RateLimit-Remaining': '0',
    // An ISO date-time, not seconds, as the platform documents it.
    'Retry-After': retryAfter,
  };
}
