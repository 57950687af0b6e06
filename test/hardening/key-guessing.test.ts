/**
 * Key guessing against the failure lockout, over real sockets from distinct loopback addresses
 * (127.0.0.x): once an address has
 * failed FLEETGATE_RATE_LIMIT_LOGIN authentications in a window, every route that checks the
 * key answers it the same 429 with Retry-After, the right key included, so a guess learns
 * nothing; a burst of parallel guesses gets no more verdicts than the limit; the dashboard
 * sign-in shares the count; other addresses are untouched; and with Redis two instances count
 * one address's failures together.
 */
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { requireService } from '../helpers/services.js';

const FAILURES = 3;
const LIMITS = { FLEETGATE_RATE_LIMIT_LOGIN: String(FAILURES), FLEETGATE_RATE_LIMIT_API: '1000' };
const RIGHT = `Bearer ${API_KEY}`;
const wrong = (i: number) => `Bearer guess-${i}-0123456789abcdef`;
const MCP_INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a fresh socket bound to `from` (a loopback address: the server sees it as the client IP). */
function send(
  base: string,
  from: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: new URL(base).port,
        localAddress: from,
        agent: false,
        path,
        method: o.method ?? 'GET',
        headers: o.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Every door that checks the key, each asked with `auth` as its credential. */
const doors = (auth: string) => {
  const key = auth.slice('Bearer '.length);
  return {
    'a capability view': {
      path: '/api/video/contacts?limit=1',
      headers: { authorization: auth },
    },
    'the status report': { path: '/api/video/status', headers: { authorization: auth } },
    metrics: { path: '/metrics', headers: { authorization: auth } },
    'the gateway MCP endpoint': {
      path: '/api/video/mcp',
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: MCP_INIT,
    },
    'the dashboard sign-in': {
      path: '/dashboard/login',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${encodeURIComponent(key)}`,
    },
  };
};

/** What a refusal shows a caller, without the parts that move with the clock or the request. */
function refusal(a: Answer) {
  const retryAfter = Number(a.headers['retry-after']);
  expect(retryAfter, a.body).toBeGreaterThan(0);
  const names = Object.keys(a.headers)
    .filter((n) => !['date', 'x-request-id', 'content-length', 'retry-after'].includes(n))
    .sort();
  return { status: a.status, names, body: a.body.replace(/\d+/g, 'N') };
}

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({ env: LIMITS });
  await e.link();
}, 60_000);
afterAll(() => e.close());

describe('the failure lockout', () => {
  it('refuses a locked-out address the same 429 whether its key is right or wrong, at every door', async () => {
    const ip = '127.0.0.2';
    for (let i = 0; i < FAILURES; i++)
      expect(
        (await send(e.base, ip, '/api/video/status', { headers: { authorization: wrong(i) } })).status,
      ).toBe(401);
    for (const [name, right] of Object.entries(doors(RIGHT))) {
      const guess = doors(wrong(99))[name as keyof ReturnType<typeof doors>];
      const refusedGuess = await send(e.base, ip, guess.path, guess);
      const refusedRight = await send(e.base, ip, right.path, right);
      expect(refusedRight.status, `${name}: the right key`).toBe(429);
      expect(refusal(refusedRight), name).toEqual(refusal(refusedGuess));
    }
    // Another address with the right key is untouched.
    for (const [name, right] of Object.entries(doors(RIGHT))) {
      const r = await send(e.base, '127.0.0.3', right.path, right);
      expect(r.status, name).toBe(name === 'the dashboard sign-in' ? 303 : 200);
    }
  });

  it('gives a burst of parallel guesses no more verdicts than the limit', async () => {
    const ip = '127.0.0.4';
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        send(e.base, ip, '/api/video/contacts?limit=1', { headers: { authorization: wrong(i) } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(FAILURES);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(
      (await send(e.base, ip, '/api/video/contacts?limit=1', { headers: { authorization: RIGHT } })).status,
    ).toBe(429);
  });

  it('counts wrong dashboard sign-ins and wrong API keys together', async () => {
    const ip = '127.0.0.5';
    const signIn = (key: string) =>
      send(e.base, ip, '/dashboard/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${key}`,
      });
    expect((await signIn('nope')).status).toBe(401);
    expect((await send(e.base, ip, '/metrics', { headers: { authorization: wrong(1) } })).status).toBe(401);
    expect(
      (await send(e.base, ip, '/api/video/status', { headers: { authorization: wrong(2) } })).status,
    ).toBe(401);
    const locked = await signIn(API_KEY);
    expect(locked.status).toBe(429);
    expect(locked.headers['set-cookie']).toBeUndefined();
  });

  it('counts one address across instances through Redis', async () => {
    if (!(await requireService('Redis', '127.0.0.1', 6379))) return;
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const env = { ...LIMITS, FLEETGATE_REDIS_PREFIX: `fg-guess-${process.pid}-${Date.now()}` };
    const a = await startGateway({ env, redis, emu: e.emu });
    const b = await startGateway({ env, redis, emu: e.emu });
    try {
      const ip = '127.0.0.6';
      const status = (g: GatewayEnv, auth: string, from = ip) =>
        send(g.base, from, '/api/video/status', { headers: { authorization: auth } }).then((r) => r.status);
      expect([await status(a, wrong(1)), await status(b, wrong(2)), await status(a, wrong(3))]).toEqual([
        401, 401, 401,
      ]);
      expect(await status(b, RIGHT)).toBe(429);
      expect(await status(a, RIGHT)).toBe(429);
      expect(await status(b, RIGHT, '127.0.0.7')).toBe(200);
    } finally {
      await a.close();
      await b.close();
      await redis.quit();
      for (const g of [a, b]) await rm(g.dataDir, { recursive: true, force: true });
    }
  });
});
