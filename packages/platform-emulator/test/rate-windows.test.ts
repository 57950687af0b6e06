/**
 * The emulator's rate windows on the Pro plan: Resource-intensive calls get 10 a minute (Zoom
 * Phone's 5), counted per minute, not per second: within the minute the allowance does not come
 * back, and once the minute is over it does; a Heavy call's allowance comes back each second.
 * No emulated route is Resource-intensive yet, so the limiter is asked directly, on an injected
 * clock rather than a real minute.
 */
import { describe, expect, it } from 'vitest';
import { PLATFORM_DAILY_LIMITS } from '../src/options.js';
import { RateLimiter } from '../src/rate-limit.js';
import { ZoomError } from '../src/zoom-error.js';

const START = Date.parse('2026-11-25T10:00:00.000Z');

/** A limiter on a clock the test moves; `hit` answers 'ok' or the 429's rate-limit category. */
function limiter() {
  let now = START;
  const l = new RateLimiter(() => new Date(now), PLATFORM_DAILY_LIMITS);
  return {
    at: (ms: number) => (now = START + ms),
    hit(label: 'HEAVY' | 'RESOURCE_INTENSIVE', product?: 'phone'): string {
      try {
        l.hit('acc', label, product);
        return 'ok';
      } catch (err) {
        if (!(err instanceof ZoomError)) throw err;
        expect(err.status).toBe(429);
        return `429 ${err.headers['X-RateLimit-Category'] ?? ''}`;
      }
    },
  };
}

describe('the Resource-intensive window', () => {
  it('allows 10 a minute, refuses the 11th until the minute is over, then allows 10 again', () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) expect(l.hit('RESOURCE_INTENSIVE'), `call ${i + 1}`).toBe('ok');
    expect(l.hit('RESOURCE_INTENSIVE')).toBe('429 Resource-intensive');
    // A per-second window would have refilled long before these.
    for (const ms of [1_000, 2_000, 30_000, 59_999]) {
      l.at(ms);
      expect(l.hit('RESOURCE_INTENSIVE'), `at ${ms} ms`).toBe('429 Resource-intensive');
    }
    l.at(60_000);
    for (let i = 0; i < 10; i++) expect(l.hit('RESOURCE_INTENSIVE'), `minute 2, call ${i + 1}`).toBe('ok');
    expect(l.hit('RESOURCE_INTENSIVE')).toBe('429 Resource-intensive');
  });

  it('allows Zoom Phone 5 a minute', () => {
    const l = limiter();
    for (let i = 0; i < 5; i++) expect(l.hit('RESOURCE_INTENSIVE', 'phone')).toBe('ok');
    expect(l.hit('RESOURCE_INTENSIVE', 'phone')).toBe('429 Resource-intensive');
    l.at(59_999);
    expect(l.hit('RESOURCE_INTENSIVE', 'phone')).toBe('429 Resource-intensive');
    l.at(60_000);
    expect(l.hit('RESOURCE_INTENSIVE', 'phone')).toBe('ok');
  });

  it('is its own window: Heavy calls refill each second beside it', () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) expect(l.hit('RESOURCE_INTENSIVE')).toBe('ok');
    for (let i = 0; i < 10; i++) expect(l.hit('HEAVY')).toBe('ok');
    expect(l.hit('HEAVY')).toBe('429 Heavy');
    l.at(1_000);
    expect(l.hit('HEAVY')).toBe('ok');
    expect(l.hit('RESOURCE_INTENSIVE')).toBe('429 Resource-intensive');
  });
});
