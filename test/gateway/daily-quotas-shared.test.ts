/**
 * Daily quota counts shared by instances: two gateways' quota keepers over one Redis, and the
 * store's table on SQLite and PostgreSQL, each take all or nothing, refuse past the limit, keep
 * the platform's word that a quota is spent, and start afresh the next UTC day.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { DailyQuotas, dailyQuotaLimits, PRO_DAILY_QUOTAS } from '../../src/gateway/platform/daily-quotas.js';
import { RedisDailyUsage } from '../../src/gateway/platform/redis-budgets.js';
import type { DailyUsageStore } from '../../src/store/store.js';
import { requireService } from '../helpers/services.js';
import { postgresStore, sqliteStore, type SqlStore } from '../store/open-store.js';

const silent = pino({ level: 'silent' });
const T = Date.parse('2026-11-25T10:00:00Z');

/** Two instances' keepers over one backend each (sharing what the backends share). */
function runSharedQuotas(name: string, open: () => Promise<[DailyUsageStore, DailyUsageStore]>) {
  describe(`daily quotas shared (${name})`, () => {
    it('two instances draw on one quota per user and per label, all or nothing', async () => {
      const [x, y] = await open();
      let now = T;
      const limits = dailyQuotaLimits({ meeting_writes_per_user: 2, light: 3 });
      const a = new DailyQuotas(x, 'database', limits, () => now, silent);
      const b = new DailyQuotas(y, 'database', limits, () => now, silent);
      await a.take('LIGHT', 'u1');
      await b.take('LIGHT', 'u1');
      await expect(a.take('LIGHT', 'u1')).rejects.toMatchObject({
        status: 429,
        code: 'daily_quota_exhausted',
        details: { quota: 'meeting_writes_per_user', userId: 'u1', limit: 2 },
        headers: { 'retry-after': String(14 * 3600) },
      });
      // The refused write counted nothing, so one Light call is left, for another user's write.
      await b.take('LIGHT', 'u2');
      await expect(a.take('LIGHT')).rejects.toMatchObject({ details: { quota: 'light', limit: 3 } });
      const report = await b.report();
      expect(report.labels.LIGHT).toMatchObject({ used: 3, remaining: 0, exhausted: true });
      expect(report.meetingWrites.users).toEqual({
        u1: { limit: 2, used: 2, remaining: 0, exhausted: true },
        u2: { limit: 2, used: 1, remaining: 1, exhausted: false },
      });
      expect(report.resetsAt).toBe('2026-11-26T00:00:00.000Z');

      // The platform said the shared Heavy/Resource-intensive quota is spent: both instances stop.
      await b.adopt('heavy', '');
      await expect(a.take('RESOURCE_INTENSIVE')).rejects.toMatchObject({ details: { quota: 'heavy' } });
      await expect(b.take('HEAVY')).rejects.toMatchObject({ details: { quota: 'heavy' } });
      expect((await a.report()).labels.HEAVY).toMatchObject({ remaining: 0, exhausted: true });

      // Uncapped quotas are counted in batches; the platform's word reaches them within seconds.
      const uncapped = dailyQuotaLimits({});
      const c = new DailyQuotas(x, 'database', uncapped, () => now, silent);
      const d = new DailyQuotas(y, 'database', uncapped, () => now, silent);
      await c.take('MEDIUM');
      await d.take('MEDIUM');
      await d.take('MEDIUM');
      expect((await c.report()).labels.MEDIUM).toMatchObject({ limit: null, remaining: null });
      expect((await d.report()).labels.MEDIUM).toMatchObject({ used: 3, exhausted: false });
      await c.adopt('medium', '');
      await expect(c.take('MEDIUM')).rejects.toMatchObject({ details: { quota: 'medium' } });
      now += 6000;
      await expect(d.take('MEDIUM')).rejects.toMatchObject({ status: 429, details: { quota: 'medium' } });

      now = Date.parse('2026-11-26T00:00:01Z');
      await a.take('HEAVY');
      await b.take('LIGHT', 'u1');
      expect((await a.report()).meetingWrites.users).toEqual({
        u1: { limit: 2, used: 1, remaining: 1, exhausted: false },
      });
    });
  });
}

describe('FLEETGATE_DAILY_QUOTAS and SANDBOX_DAILY_LIMITS', () => {
  it('name the quotas; unnamed ones keep the Pro plan’s, resource_intensive sets the shared heavy one', () => {
    const c = parseConfig({
      FLEETGATE_DAILY_QUOTAS: 'meeting_writes_per_user=3,Light=50',
      SANDBOX_DAILY_LIMITS: 'heavy=5',
    });
    expect(dailyQuotaLimits(c.gateway.dailyQuotas)).toEqual({
      ...PRO_DAILY_QUOTAS,
      meeting_writes_per_user: 3,
      light: 50,
    });
    expect(c.sandbox.dailyLimits).toBe('heavy=5');
    expect(dailyQuotaLimits({ resource_intensive: 7 }).heavy).toBe(7);
    expect(dailyQuotaLimits({ heavy: 9, resource_intensive: 7 }).heavy).toBe(7);
    expect(() => parseConfig({ FLEETGATE_DAILY_QUOTAS: 'meetings=3' })).toThrow(ConfigError);
    expect(() => parseConfig({ SANDBOX_DAILY_LIMITS: 'heavy=-1' })).toThrow(/SANDBOX_DAILY_LIMITS/);
  });
});

const redisUp = await requireService('Redis', '127.0.0.1', 6379);
const clients: Redis[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
});
describe.skipIf(!redisUp)('redis', () => {
  runSharedQuotas('Redis', () => {
    const prefix = `fgtest:daily:${process.pid}:${randomBytes(4).toString('hex')}`;
    const [r1, r2] = [0, 1].map(() => new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 }));
    clients.push(r1 as Redis, r2 as Redis);
    return Promise.resolve([
      new RedisDailyUsage(r1 as Redis, prefix),
      new RedisDailyUsage(r2 as Redis, prefix),
    ]);
  });

  it('lets the call go when Redis cannot be reached (the platform’s daily 429 remains the backstop)', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    const q = new DailyQuotas(
      new RedisDailyUsage(dead, 'x'),
      'redis',
      dailyQuotaLimits({ light: 0 }),
      Date.now,
      silent,
    );
    await q.take('LIGHT');
    dead.disconnect();
  });
});

const stores: SqlStore[] = [];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-daily-'));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

runSharedQuotas('SQLite, two connections to one file', async () => {
  const file = path.join(dir, 'daily.db');
  const a = sqliteStore(file);
  await a.migrate();
  const b = sqliteStore(file);
  stores.push(a, b);
  return [a.dailyUsage, b.dailyUsage];
});

const DATABASE_URL = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgUp = await requireService('PostgreSQL', '127.0.0.1', 5432);
const schema = `fg_daily_${randomBytes(4).toString('hex')}`;
afterAll(async () => {
  if (!pgUp) return;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
});
describe.skipIf(!pgUp)('postgres', () => {
  runSharedQuotas('PostgreSQL, two pools on one schema', async () => {
    const a = postgresStore(DATABASE_URL, { schema });
    await a.migrate();
    const b = postgresStore(DATABASE_URL, { schema });
    stores.push(a, b);
    return [a.dailyUsage, b.dailyUsage];
  });

  it('never lets two instances take the last one at once', async () => {
    const a = postgresStore(DATABASE_URL, { schema });
    const b = postgresStore(DATABASE_URL, { schema });
    stores.push(a, b);
    const charge = [{ quota: 'race', subject: '', limit: 5 }];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).dailyUsage.take('2026-11-25', charge)),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(5);
  });
});
