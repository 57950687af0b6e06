/**
 * Operations: our own rate limits (per key, per IP, MCP, failed sign-ins; brand reads exempt; shared
 * through Redis), security headers, /metrics (guarded, by route pattern, gateway events),
 * request ids in logs and answers, and readiness that pings the store and asks whether it can write.
 */
import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../../src/http/errors.js';
import { registerHealthRoutes } from '../../src/http/routes/health-routes.js';
import { DENY_ALL_CSP, SECURITY_HEADERS } from '../../src/http/security-headers.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { requireService } from '../helpers/services.js';

const LIMITS = {
  FLEETGATE_RATE_LIMIT_API: '5',
  FLEETGATE_RATE_LIMIT_MCP: '3',
  FLEETGATE_RATE_LIMIT_LOGIN: '2',
};
const AUTH = { authorization: `Bearer ${API_KEY}` };
const MCP_PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({ env: LIMITS });
  await e.link();
}, 60_000);
afterAll(() => e.close());

const get = (url: string, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
  e.app.inject({ method: 'GET', url, headers, remoteAddress: ip });

describe('rate limits on our own API', () => {
  it('limits the operator by key, whatever the address, with RateLimit-* and Retry-After', async () => {
    // Linking in beforeAll already spent one request of the operator's budget.
    const first = await get('/api/video/capabilities', AUTH, '10.1.0.0');
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    const remaining = Number(first.headers['ratelimit-remaining']);
    expect(remaining).toBeGreaterThan(0);
    const answers = [];
    for (let i = 1; i <= remaining + 1; i++)
      answers.push(await get('/api/video/capabilities', AUTH, `10.1.0.${i}`));
    expect(answers.slice(0, remaining).every((r) => r.statusCode === 200)).toBe(true);
    expect(answers[remaining - 1]?.headers['ratelimit-remaining']).toBe('0');
    const refused = answers[remaining];
    expect(refused?.statusCode).toBe(429);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused?.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(JSON.parse(refused?.body ?? '')).toMatchObject({
      error: { code: 'rate_limited', details: { limit: 5 } },
    });
  });

  it('limits anonymous callers by address, and invented keys lock their address out sooner', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await get('/api/video/status', {}, '10.2.0.1')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Another address has its own budget.
    expect((await get('/api/video/status', {}, '10.2.0.2')).statusCode).toBe(401);
    // A wrong key is a failed authentication: two (the login limit) and the address is locked out.
    const guesses = [];
    for (let i = 0; i < 4; i++)
      guesses.push(
        (await get('/api/video/status', { authorization: `Bearer invented-${i}` }, '10.2.0.3')).statusCode,
      );
    expect(guesses).toEqual([401, 401, 429, 429]);
  });

  it('limits POST /mcp per address in JSON-RPC shape, and the dashboard login per address', async () => {
    const mcp = [];
    for (let i = 0; i < 4; i++)
      mcp.push(
        await e.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: MCP_HEADERS,
          payload: MCP_PING,
          remoteAddress: '10.3.0.1',
        }),
      );
    expect(mcp.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(JSON.parse(mcp[3]?.body ?? '')).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const login = [];
    for (let i = 0; i < 3; i++)
      login.push(
        await e.app.inject({
          method: 'POST',
          url: '/dashboard/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'key=guess',
          remoteAddress: '10.3.0.2',
        }),
      );
    expect(login.map((r) => r.statusCode)).toEqual([401, 401, 429]);
    // Locked out, the right key gets the same refusal as a guess (else each guess learns its
    // answer); from another address it signs in.
    const right = (remoteAddress: string) =>
      e.app.inject({
        method: 'POST',
        url: '/dashboard/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `key=${API_KEY}`,
        remoteAddress,
      });
    const locked = await right('10.3.0.2');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(locked.body)).toMatchObject({ error: { code: 'rate_limited', details: { limit: 2 } } });
    expect((await right('10.3.0.3')).statusCode).toBe(303);
  });

  it('leaves the public brand reads alone', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await get('/api/brand/themes', {}, '10.4.0.1');
      expect(r.statusCode).toBe(200);
      expect(r.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('shares the budget between instances through Redis', async () => {
    if (!(await requireService('Redis', '127.0.0.1', 6379))) return;
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const env = { ...LIMITS, FLEETGATE_REDIS_PREFIX: `fg-test-${process.pid}-${Date.now()}` };
    const a = await buildTestApp({ env, redis });
    const b = await buildTestApp({ env, redis });
    try {
      const post = (app: typeof a) =>
        app.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: MCP_HEADERS,
          payload: MCP_PING,
          remoteAddress: '10.5.0.1',
        });
      const statuses = [await post(a), await post(b), await post(a), await post(b)].map((r) => r.statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
      await redis.quit();
    }
  });
});

describe('security headers', () => {
  it('are on API answers, errors and 404s, with a deny-all CSP; pages and docs keep their own', async () => {
    const apiKey = { authorization: `Bearer ${API_KEY}` };
    for (const [url, headers, ip] of [
      ['/healthz', {}, '10.6.0.1'],
      ['/api/video/status', {}, '10.6.0.2'],
      ['/nope', {}, '10.6.0.3'],
      ['/metrics', apiKey, '10.6.0.4'],
      ['/%', {}, '10.6.0.5'],
    ] as const) {
      const r = await get(url, headers, ip);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(r.headers[name], `${url} ${name}`).toBe(value);
      expect(r.headers['content-security-policy'], url).toBe(DENY_ALL_CSP);
      // None was given, so a fresh UUID.
      expect(r.headers['x-request-id'], url).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    for (const url of ['/', '/dashboard', '/docs']) {
      const r = await get(url, {}, '10.6.1.1');
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-security-policy'], url).not.toBe(DENY_ALL_CSP);
      expect(r.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(r.headers['x-frame-options'], url).toBe('DENY');
    }
    expect(SECURITY_HEADERS['strict-transport-security']).toMatch(/^max-age=\d+$/);
    expect(SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
  });
});

describe('metrics', () => {
  it('are for the operator only, counted by route pattern, with the gateway events', async () => {
    expect((await get('/metrics', {}, '10.7.0.1')).statusCode).toBe(401);
    await get('/api/video/events/12345', AUTH, '10.7.0.2');
    await get(`/no/such/${'x'.repeat(20)}`, {}, '10.7.0.3');
    await e.gateway.platform.call({ method: 'GET', path: '/users/me', label: 'LIGHT', group: 'meetings' });
    const body = JSON.stringify({ event: 'meeting.started', payload: { object: { id: 1 } } });
    const ts = String(Math.floor(Date.now() / 1000));
    const delivery = await e.app.inject({
      method: 'POST',
      url: '/api/video/webhooks',
      remoteAddress: '10.7.0.5',
      headers: {
        'content-type': 'application/json',
        'x-zm-request-timestamp': ts,
        'x-zm-signature': `v0=${createHmac('sha256', 'sandbox-webhook-secret').update(`v0:${ts}:${body}`).digest('hex')}`,
      },
      payload: body,
    });
    expect(delivery.statusCode).toBe(200);
    const r = await get('/metrics', AUTH, '10.7.0.4');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = r.body;
    expect(text).toMatch(
      /fleetgate_http_requests_total\{method="GET",route="\/api\/video\/events\/:videoId",status="\d+"\} 1/,
    );
    expect(text).toMatch(/fleetgate_http_requests_total\{method="GET",route="<unmatched>",status="404"\}/);
    expect(text).not.toContain('xxxxxxxx');
    expect(text).toMatch(
      /fleetgate_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/video\/events\/:videoId"\}/,
    );
    expect(text).toMatch(
      /fleetgate_upstream_calls_total\{label="[A-Z_]+",group="[a-z_]+",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(/fleetgate_webhook_deliveries_total\{outcome="accepted"\} [1-9]/);
  });
});

describe('request ids', () => {
  it('answer with the id the log lines carry; a sane incoming id is kept, anything else replaced', async () => {
    const kept = await get('/api/video/status', { ...AUTH, 'x-request-id': 'trace-abc.123' }, '10.8.0.1');
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
    const lines = e.logs().filter((l) => l.includes('trace-abc.123'));
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: 'trace-abc.123' });
    const replaced = await get(
      '/api/video/status',
      { ...AUTH, 'x-request-id': 'bad id\n<script>' },
      '10.8.0.2',
    );
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

const CURRENT_SCHEMA = {
  code: '015_schema_compat',
  database: '015_schema_compat',
  unknown: [],
  serves: true,
};

describe('readiness', () => {
  it('reports the store, and answers 503 in the one shape when it does not answer', async () => {
    const ok = await get('/readyz', {}, '10.9.0.1');
    expect(JSON.parse(ok.body)).toMatchObject({ status: 'ready', store: 'ok' });
    const app = Fastify();
    installErrorHandlers(app);
    registerHealthRoutes(app, {
      brand: { current: { source: { info: { name: 'x' } }, loadedAt: '' } } as never,
      store: {
        ping: () => Promise.reject(new Error('database is gone')),
        writeFailure: () => Promise.resolve(undefined),
        schema: () => Promise.resolve(CURRENT_SCHEMA),
      },
    });
    const down = await app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(JSON.parse(down.body)).toEqual({
      error: { code: 'not_ready', message: 'The store does not answer.' },
    });
    expect(down.body).not.toContain('database is gone');
    await app.close();
  });

  it('answers 503 naming the cause when the store answers but cannot write', async () => {
    const app = Fastify();
    installErrorHandlers(app);
    registerHealthRoutes(app, {
      brand: { current: { source: { info: { name: 'x' } }, loadedAt: '' } } as never,
      store: {
        ping: () => Promise.resolve(),
        writeFailure: () => Promise.resolve('storage_full'),
        schema: () => Promise.resolve(CURRENT_SCHEMA),
      },
    });
    const full = await app.inject({ method: 'GET', url: '/readyz' });
    expect(full.statusCode).toBe(503);
    expect(full.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(full.body)).toEqual({
      error: {
        code: 'not_ready',
        message: 'The store cannot write: its disk (or quota) is full.',
        details: { store: 'storage_full' },
      },
    });
    await app.close();
  });
});
