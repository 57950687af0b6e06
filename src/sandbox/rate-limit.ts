/**
 * The platform's rate limits on the Pro plan, per account: per-second (per-minute for
 * resource-intensive) windows by label, and the shared daily cap on heavy + resource-intensive
 * calls. Exceeding one answers 429 with the platform's headers and body.
 */
import type { RateLabel } from './options.js';
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
const DAILY = { default: 30_000, phone: 15_000 };
const CATEGORY: Record<RateLabel, string> = {
  LIGHT: 'Light',
  MEDIUM: 'Medium',
  HEAVY: 'Heavy',
  RESOURCE_INTENSIVE: 'Resource-intensive',
};

export class RateLimiter {
  #windows = new Map<string, { start: number; count: number }>();
  #daily = new Map<string, number>();

  constructor(private readonly now: () => Date) {}

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
    if (label === 'HEAVY' || label === 'RESOURCE_INTENSIVE') {
      const day = this.now().toISOString().slice(0, 10);
      const dkey = `${accountId}:${product ?? 'api'}:${day}`;
      const used = (this.#daily.get(dkey) ?? 0) + 1;
      this.#daily.set(dkey, used);
      const cap = product === 'phone' ? DAILY.phone : DAILY.default;
      if (used > cap) {
        const tomorrow = new Date(`${day}T00:00:00Z`);
        tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
        throw new ZoomError(
          429,
          429,
          'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
          {
            'X-RateLimit-Category': CATEGORY[label],
            'X-RateLimit-Type': 'Daily-limit',
            'X-RateLimit-Limit': String(cap),
            'X-RateLimit-Remaining': '0',
            'Retry-After': tomorrow.toISOString().replace('.000Z', 'Z'),
          },
        );
      }
    }
  }

  reset(): void {
    this.#windows.clear();
    this.#daily.clear();
  }
}
