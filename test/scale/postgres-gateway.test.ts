/**
 * Two gateway instances on one PostgreSQL database and one emulator: a link made on one is
 * seen by the other, an OAuth flow started on one completes on the other, a refresh race over
 * both costs one refresh grant, writes from both are listed by both, and a warm status report
 * on one shows the other's writes once its store view expires.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { requireService } from '../helpers/services.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await requireService('PostgreSQL', '127.0.0.1', 5432);
const schema = `fg_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
const env = {
  DATABASE_URL: DB,
  FLEETGATE_DB_SCHEMA: schema,
  FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

let a: GatewayEnv;
let b: GatewayEnv;
beforeAll(async () => {
  if (!available) return;
  a = await startGateway({ env });
  // Behind one load balancer, instances share the public URL (and so the OAuth redirect URI).
  b = await startGateway({ env: { ...env, PUBLIC_URL: a.base }, emu: a.emu });
});
afterAll(async () => {
  if (!available) return;
  await b.close();
  await a.close();
  const c = new pg.Client({ connectionString: DB });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
});

const grants = async () => (await a.emu.api('GET', '/_sandbox/stats')).json;

describe.skipIf(!available)('scale-out on PostgreSQL', () => {
  it('an OAuth flow started on A completes on B, and both see the link', async () => {
    const start = await fetch(`${a.base}/api/video/oauth/start`, {
      headers: { authorization: `Bearer ${API_KEY}` },
      redirect: 'manual',
    });
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const consent = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const done = await fetch(`${b.base}${back.pathname}${back.search}`, {
      headers: { cookie, accept: 'application/json' },
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await a.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
    expect((await b.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });

  it('a refresh race over both instances costs exactly one refresh grant', async () => {
    await a.emu.api('POST', '/_sandbox/tokens/expire');
    const before = (await grants()).tokenGrants.refresh_token;
    const call = (g: GatewayEnv) =>
      g.gateway.platform.call({ method: 'GET', path: '/users/me', label: 'LIGHT', group: 'meetings' });
    const results = await Promise.all([
      ...Array.from({ length: 30 }, () => call(a)),
      ...Array.from({ length: 30 }, () => call(b)),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = await grants();
    expect(after.tokenGrants.refresh_token - before).toBe(1);
    expect(after.rejectedRefreshTokens).toBe(0);
  });

  it('writes from both are listed by both', async () => {
    const x = await a.api('POST', '/api/video/events', {
      body: { topic: 'From A', start_time: '2031-01-01T10:00:00.000Z', funnel: 'capital' },
    });
    const y = await b.api('POST', '/api/video/events', {
      body: { topic: 'From B', start_time: '2031-01-02T10:00:00.000Z', funnel: 'capital' },
    });
    for (const g of [a, b]) {
      const ids = (await g.api('GET', '/api/video/events?funnel=capital')).json.items.map(
        (e: { video_id: string }) => e.video_id,
      );
      expect(ids).toEqual(expect.arrayContaining([x.json.video_id, y.json.video_id]));
    }
  });

  it("a warm status report shows the other instance's write once its short store view expires", async () => {
    const topics = async (g: GatewayEnv) =>
      ((await g.api('GET', '/api/video/status')).json.storedEvents as { topic: string }[]).map(
        (e) => e.topic,
      );
    expect(await topics(a)).not.toContain('Late from B');
    const made = await b.api('POST', '/api/video/events', {
      body: { topic: 'Late from B', start_time: '2031-01-03T10:00:00.000Z', funnel: 'capital' },
    });
    expect(made.status).toBe(201);
    // B's own report shows it at once; A cannot see B's writes, so its cached view expires (1 s).
    expect(await topics(b)).toContain('Late from B');
    const t0 = Date.now();
    let seen = false;
    while (!seen && Date.now() - t0 < 5_000) {
      seen = (await topics(a)).includes('Late from B');
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe(true);
  });
});
