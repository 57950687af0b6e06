/**
 * The platform's daily quotas through real HTTP against the emulator (SANDBOX_DAILY_LIMITS
 * small): the gateway refuses a meeting write past the user's daily quota without calling the
 * platform (the emulator's request counts say so), a daily 429 from the platform is never
 * retried and is adopted until the reset, a 429 without its headers is still backed off (a
 * window at least) or recognised as daily by its message, a second instance on the same
 * database counts against the same quotas, and the monitor shows what is left.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budgets, PRO_BUDGETS } from '../../src/gateway/platform/budget.js';
import { fetchTransport } from '../../src/gateway/platform/http-transport.js';
import { dailyLimitHit, PlatformClient } from '../../src/gateway/platform/platform-client.js';
import { parseDailyLimits } from '../../packages/platform-emulator/src/options.js';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({
    // The platform's limits: 3 meeting writes per user, 1 Heavy/Resource-intensive call a day.
    emulator: { rateLimits: true, dailyLimits: parseDailyLimits('meeting_writes_per_user=3,heavy=1') },
    // The gateway knows the meeting-write quota; the Heavy one it learns from the platform's 429.
    env: { FLEETGATE_DAILY_QUOTAS: 'meeting_writes_per_user=3' },
  });
  await e.link();
});
afterAll(() => e.close());

const requests = async (key: string): Promise<number> =>
  ((await e.emu.api('GET', '/_sandbox/stats')).json.requests as Record<string, number>)[key] ?? 0;
const meetingWrites = async (): Promise<number> => {
  const req = (await e.emu.api('GET', '/_sandbox/stats')).json.requests as Record<string, number>;
  return Object.entries(req)
    .filter(([k]) => /^(POST \/v2\/users\/[^/]+\/meetings|(PATCH|DELETE) \/v2\/meetings\/[^/]+)$/.test(k))
    .reduce((n, [, v]) => n + v, 0);
};
const nextMidnight = () => {
  const d = new Date();
  d.setUTCHours(24, 0, 0, 0);
  return d.toISOString();
};
const heavyCall = (client = e.gateway.platform) =>
  client.call({ method: 'GET', path: '/calendars/users/me/calendarList', label: 'HEAVY', group: 'calendar' });

describe('daily quotas', () => {
  it('refuses a meeting write past the user’s daily quota before it reaches the platform', async () => {
    const created = await e.api('POST', '/api/video/events', {
      body: { topic: 'Quota 1', start_time: '2030-12-20T17:00:00Z' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.video_id as string;
    expect((await e.api('PATCH', `/api/video/events/${id}`, { body: { topic: 'Quota 1b' } })).status).toBe(
      200,
    );
    const second = await e.api('POST', '/api/video/events', {
      body: { topic: 'Quota 2', start_time: '2030-12-21T17:00:00Z' },
    });
    expect(second.status, second.text).toBe(201);
    expect(await meetingWrites()).toBe(3);

    const refused = await e.api('POST', '/api/video/events', {
      body: { topic: 'Quota 3', start_time: '2030-12-22T17:00:00Z' },
    });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe('daily_quota_exhausted');
    expect(refused.json.error.details).toMatchObject({
      quota: 'meeting_writes_per_user',
      limit: 3,
      resetsAt: nextMidnight(),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 86_400).toBe(true);
    // Updates and deletes draw on the same quota; none of them was sent.
    expect((await e.api('PATCH', `/api/video/events/${id}`, { body: { topic: 'no' } })).status).toBe(429);
    expect((await e.api('DELETE', `/api/video/events/${id}`)).status).toBe(429);
    expect(await meetingWrites()).toBe(3);
    // Reads are not meeting writes.
    expect((await e.api('GET', `/api/video/events/${id}`)).status).toBe(200);

    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    const link = await e.store.getLink();
    expect(monitor.dailyQuotas.meetingWrites).toEqual({
      limit: 3,
      users: { [link?.userId ?? '']: { limit: 3, used: 3, remaining: 0, exhausted: true } },
    });
    expect(monitor.dailyQuotas.resetsAt).toBe(nextMidnight());
    expect(monitor.dailyQuotas.countedIn).toBe('database');
    expect(monitor.dailyQuotas.labels.LIGHT).toMatchObject({ quota: 'light', limit: null, remaining: null });
    expect(monitor.dailyQuotas.labels.LIGHT.used).toBeGreaterThanOrEqual(3);
    // Per second, beside it.
    expect(monitor.budgets.LIGHT).toMatchObject({ limit: 30, windowMs: 1000 });
  });

  it('counts against the same quotas from a second instance on the same database', async () => {
    const twin = await e.twin();
    try {
      const r = await twin.api('POST', '/api/video/events', {
        body: { topic: 'Twin', start_time: '2030-12-23T17:00:00Z' },
      });
      expect(r.status, r.text).toBe(429);
      expect(r.json.error.details.quota).toBe('meeting_writes_per_user');
      expect(await meetingWrites()).toBe(3);
    } finally {
      await twin.close();
    }
  });

  it('never retries the platform’s daily 429, and adopts it until the reset', async () => {
    const path = 'GET /v2/calendars/users/me/calendarList';
    await heavyCall();
    expect(await requests(path)).toBe(1);
    // The platform's Heavy quota (1 a day) is spent; a read would be retried on a per-second 429.
    await expect(heavyCall()).rejects.toMatchObject({
      status: 429,
      code: 'daily_quota_exhausted',
      details: {
        quota: 'heavy',
        platformStatus: 429,
        platformMessage:
          'You have reached the maximum daily rate limit for this API. Refer to the response header for details on when you can make another request.',
      },
    });
    expect(await requests(path)).toBe(1 + 1);
    // Adopted: the next Heavy or Resource-intensive call is refused here, the platform not asked.
    await expect(heavyCall()).rejects.toMatchObject({ status: 429, details: { quota: 'heavy' } });
    await expect(
      e.gateway.platform.call({
        method: 'GET',
        path: '/report/daily',
        label: 'RESOURCE_INTENSIVE',
        group: 'x',
      }),
    ).rejects.toMatchObject({ status: 429, details: { quota: 'heavy' } });
    expect(await requests(path)).toBe(2);
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    expect(monitor.dailyQuotas.labels.HEAVY).toMatchObject({ quota: 'heavy', remaining: 0, exhausted: true });
    expect(monitor.dailyQuotas.labels.RESOURCE_INTENSIVE).toMatchObject({ quota: 'heavy', exhausted: true });
  });

  describe('when the platform leaves out the rate-limit headers', () => {
    const sleeps: number[] = [];
    let client: PlatformClient;
    beforeAll(async () => {
      await e.emu.api('POST', '/_sandbox/quirks', { body: { omitRateLimitHeaders: true } });
      // A client of its own, to see how long it waits (the gateway's waits are shortened).
      client = new PlatformClient({
        apiBase: `${e.emu.base}/v2`,
        transport: fetchTransport(fetch),
        tokens: e.gateway.tokens,
        budgets: new Budgets(PRO_BUDGETS, Date.now),
        now: Date.now,
        logger: pino({ level: 'silent' }),
        timeoutMs: 5000,
        maxAttempts: 4,
        retryBaseMs: 200,
        retryMaxMs: 4000,
        maxWaitMs: 5000,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
        random: () => 0,
      });
    });
    afterAll(async () => {
      await e.emu.api('POST', '/_sandbox/quirks', { body: { omitRateLimitHeaders: false } });
    });

    it('backs off a per-second 429 by a window at least, then succeeds', async () => {
      await e.emu.api('POST', '/_sandbox/faults', {
        body: { path: '/v2/users/me/settings', method: 'GET', status: 429, times: 2, retryAfter: '0' },
      });
      const before = await requests('GET /v2/users/me/settings');
      const r = await client.call({ method: 'GET', path: '/users/me/settings', label: 'MEDIUM', group: 'x' });
      expect(r.status).toBe(200);
      expect((await requests('GET /v2/users/me/settings')) - before).toBe(3);
      // Full jitter could have drawn 0 ms; without Retry-After a 429 waits the window out.
      expect(sleeps).toEqual([1000, 1000]);
    });

    it('still knows a daily 429 by its message and does not retry it', async () => {
      const path = 'GET /v2/calendars/users/me/calendarList';
      const before = await requests(path);
      sleeps.length = 0;
      await expect(heavyCall(client)).rejects.toMatchObject({
        status: 429,
        code: 'daily_quota_exhausted',
        details: { quota: 'heavy' },
      });
      expect((await requests(path)) - before).toBe(1);
      expect(sleeps).toEqual([]);
    });
  });

  it('tells daily 429s from per-second ones by header or message', () => {
    expect(dailyLimitHit('Daily-limit', null)).toBe('account');
    expect(
      dailyLimitHit(
        'QPS',
        'You have reached the maximum per-second rate limit for this API. Try again later.',
      ),
    ).toBe(undefined);
    expect(dailyLimitHit(null, null)).toBe(undefined);
    expect(
      dailyLimitHit(
        null,
        'You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00.',
      ),
    ).toBe('user');
  });
});
