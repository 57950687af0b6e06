/**
 * Rate budgets shared through Redis: two instances draw from one budget per label and window.
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRO_BUDGETS } from '../../src/gateway/platform/budget.js';
import { RedisBudgets } from '../../src/gateway/platform/redis-budgets.js';
import { requireService } from '../helpers/services.js';

const available = await requireService('Redis', '127.0.0.1', 6379);
let redis: Redis;
beforeAll(() => {
  if (available) redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: false, maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  if (available) await redis.quit();
});

describe.skipIf(!available)('shared budgets', () => {
  it('two instances share one budget per window', async () => {
    const prefix = `fgtest:${process.pid}:${Date.now()}`;
    const limits = { ...PRO_BUDGETS, LIGHT: { limit: 2, windowMs: 1000 } };
    const t = 1_800_000_000_000;
    const a = new RedisBudgets(redis, limits, () => t, pino({ level: 'silent' }), prefix);
    const b = new RedisBudgets(redis, limits, () => t, pino({ level: 'silent' }), prefix);
    const waits = [
      await a.reserve('LIGHT'),
      await b.reserve('LIGHT'),
      await a.reserve('LIGHT'),
      await b.reserve('LIGHT'),
      await a.reserve('LIGHT'),
    ];
    expect(waits).toEqual([0, 0, 1000, 1000, 2000]);
    expect(a.shared).toBe(true);
    // Other labels have their own budget.
    expect(await b.reserve('MEDIUM')).toBe(0);
  });

  it('lets calls through when Redis is unreachable (the platform 429 remains the backstop)', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    const k = new RedisBudgets(dead, PRO_BUDGETS, () => Date.now(), pino({ level: 'silent' }), 'x');
    expect(await k.reserve('LIGHT')).toBe(0);
    dead.disconnect();
  });
});
