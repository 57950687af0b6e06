/**
 * The emulator's daily limits, as the platform has them: 429 with the platform's code, message
 * and headers once a user has spent its meeting writes or the account its shared Heavy/
 * Resource-intensive quota, a fresh allowance after 00:00 UTC, SANDBOX_DAILY_LIMITS' format, and
 * the quirk that drops the rate-limit headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDailyLimits, PLATFORM_DAILY_LIMITS } from '../src/options.js';
import { RateLimiter } from '../src/rate-limit.js';
import { ZoomError } from '../src/zoom-error.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let s: TestEmulator;
let token: string;
beforeAll(async () => {
  s = await startTestEmulator({
    rateLimits: true,
    dailyLimits: parseDailyLimits('meeting_writes_per_user=2,heavy=2'),
  });
  token = (await s.userToken()).access_token;
});
afterAll(() => s.close());

const nextMidnight = (now: Date) => {
  const d = new Date(now);
  d.setUTCHours(24, 0, 0, 0);
  return d;
};

const create = () =>
  s.api('POST', '/v2/users/me/meetings', { token, body: { topic: 'Daily', type: 2, duration: 30 } });

describe('emulator daily limits', () => {
  it('parses SANDBOX_DAILY_LIMITS: named ones change, the rest keep the platform values', () => {
    expect(parseDailyLimits(undefined)).toEqual(PLATFORM_DAILY_LIMITS);
    expect(parseDailyLimits('meeting_writes_per_user=3, light=7')).toEqual({
      ...PLATFORM_DAILY_LIMITS,
      meetingWritesPerUser: 3,
      light: 7,
    });
    // Heavy and Resource-intensive share one quota: either name sets it, the smaller wins.
    expect(parseDailyLimits('resource_intensive=50000').heavy).toBe(50000);
    expect(parseDailyLimits('heavy=9,resource_intensive=4').heavy).toBe(4);
    expect(() => parseDailyLimits('meetings=3')).toThrow(/SANDBOX_DAILY_LIMITS/);
    expect(() => parseDailyLimits('light=-1')).toThrow(/SANDBOX_DAILY_LIMITS/);
  });

  it('refuses a user’s meeting write past its daily cap with the platform’s 429, until 00:00 UTC', async () => {
    const first = await create();
    expect(first.status).toBe(201);
    // An update counts against the same cap.
    const patched = await s.api('PATCH', `/v2/meetings/${first.json.id}`, { token, body: { topic: 'x' } });
    expect(patched.status).toBe(204);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      code: 429,
      message:
        'You have exceeded the daily rate limit (2) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00.',
    });
    expect(refused.headers.get('x-ratelimit-type')).toBe('Daily-limit');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = nextMidnight(s.options.now());
    expect(refused.headers.get('retry-after')).toBe(reset.toISOString().replace('.000Z', 'Z'));
    // Deletes count too; reads do not.
    expect((await s.api('DELETE', `/v2/meetings/${first.json.id}`, { token })).status).toBe(429);
    expect((await s.api('GET', `/v2/meetings/${first.json.id}`, { token })).status).toBe(200);

    s.advance(reset.getTime() - s.options.now().getTime() + 1000);
    token = (await s.userToken()).access_token; // the old one expired overnight
    expect((await create()).status).toBe(201);
  });

  it('refuses Heavy calls past the daily quota with the platform’s daily 429', async () => {
    const heavy = () => s.api('GET', '/v2/calendars/users/me/calendarList', { token });
    expect((await heavy()).status).not.toBe(429);
    expect((await heavy()).status).not.toBe(429);
    const r = await heavy();
    expect(r.status).toBe(429);
    expect(r.json).toEqual({
      code: 429,
      message:
        'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
    });
    expect(r.headers.get('x-ratelimit-category')).toBe('Heavy');
    expect(r.headers.get('x-ratelimit-type')).toBe('Daily-limit');
    expect(r.headers.get('x-ratelimit-limit')).toBe('2');
    // Light calls have no daily cap on the Pro plan.
    expect((await s.api('GET', '/v2/users/me', { token })).status).toBe(200);
  });

  it('counts Heavy and Resource-intensive calls against one shared daily quota', () => {
    // No emulated route is Resource-intensive yet, so the limiter is asked directly.
    let now = new Date('2026-11-25T10:00:00Z');
    const limiter = new RateLimiter(() => now, parseDailyLimits('heavy=3'));
    limiter.hit('acc', 'HEAVY', undefined);
    limiter.hit('acc', 'RESOURCE_INTENSIVE', undefined);
    limiter.hit('acc', 'HEAVY', undefined);
    let refused: unknown;
    try {
      now = new Date('2026-11-25T10:05:00Z'); // past the per-minute window
      limiter.hit('acc', 'RESOURCE_INTENSIVE', undefined);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ZoomError);
    expect((refused as ZoomError).headers).toMatchObject({
      'X-RateLimit-Category': 'Resource-intensive',
      'X-RateLimit-Type': 'Daily-limit',
      'Retry-After': '2026-11-26T00:00:00Z',
    });
    // Another account has its own quota; the next day starts afresh.
    limiter.hit('other', 'HEAVY', undefined);
    now = new Date('2026-11-26T00:00:01Z');
    limiter.hit('acc', 'RESOURCE_INTENSIVE', undefined);
  });

  it('drops the rate-limit headers from 429s when the quirk is on, keeping the body', async () => {
    const on = await s.api('POST', '/_sandbox/quirks', { body: { omitRateLimitHeaders: true } });
    expect(on.json).toEqual({ omitRateLimitHeaders: true });
    const r = await s.api('GET', '/v2/calendars/users/me/calendarList', { token });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe(429);
    for (const h of ['x-ratelimit-category', 'x-ratelimit-type', 'x-ratelimit-limit', 'retry-after'])
      expect(r.headers.get(h)).toBeNull();
    // Injected 429s lose them too.
    await s.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/users/me', status: 429, retryAfter: '1' },
    });
    const fault = await s.api('GET', '/v2/users/me', { token });
    expect(fault.status).toBe(429);
    expect(fault.headers.get('retry-after')).toBeNull();
    expect(fault.headers.get('x-ratelimit-type')).toBeNull();
    expect((await s.api('POST', '/_sandbox/quirks', { body: { nope: 1 } })).status).toBe(400);
    // A reset restores the configured behaviour (and the day's counts).
    expect((await s.api('POST', '/_sandbox/reset')).status).toBe(204);
    expect((await s.api('GET', '/_sandbox/quirks')).json).toEqual({ omitRateLimitHeaders: false });
  });
});
