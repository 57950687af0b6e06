/**
 * The rules every emulated endpoint shares: bearer auth, scopes, rate limits, tracking ids,
 * faults, the control API, signed webhooks with retries, reset, and persistence across restarts.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/wait.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator();
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

describe('bearer auth and scopes', () => {
  it('401 code 124 without, with a bad, or with an expired token', async () => {
    expect((await t.api('GET', '/v2/users/me')).json).toEqual({
      code: 124,
      message: 'Requires an access token.',
    });
    expect((await t.api('GET', '/v2/users/me', { token: 'nope' })).json).toEqual({
      code: 124,
      message: 'Invalid access token.',
    });
    const other = await startTestEmulator();
    try {
      const tok = (await other.userToken()).access_token;
      expect((await other.api('POST', '/_sandbox/tokens/expire')).status).toBe(204);
      const r = await other.api('GET', '/v2/users/me', { token: tok });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ code: 124, message: 'Access token is expired.' });
      const tok2 = (await other.userToken()).access_token;
      other.advance(3600_000);
      expect((await other.api('GET', '/v2/users/me', { token: tok2 })).json.code).toBe(124);
    } finally {
      await other.close();
    }
  });

  it('400 code 4711 naming the missing scope', async () => {
    const narrow = await startTestEmulator({ scopes: ['user:read:user'] });
    try {
      const tok = (await narrow.userToken()).access_token;
      expect((await narrow.api('GET', '/v2/users/me', { token: tok })).status).toBe(200);
      const r = await narrow.api('GET', '/v2/users/me/meetings', { token: tok });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        code: 4711,
        message: 'Invalid access token, does not contain scopes:[meeting:read:list_meetings].',
      });
    } finally {
      await narrow.close();
    }
  });

  it('puts x-zm-trackingid on every response', async () => {
    for (const r of [
      await t.api('GET', '/v2/users/me', { token }),
      await t.api('GET', '/v2/users/me'),
      await expectViolation({ where: 'operation' }, () => t.api('GET', '/v2/nothing', { token })),
    ]) {
      expect(r.headers.get('x-zm-trackingid')).toMatch(/^v=2\.0;/);
    }
  });
});

describe('rate limits (Pro plan, per account)', () => {
  it('429 with the platform headers past 30 light calls in a second', async () => {
    const limited = await startTestEmulator({
      rateLimits: true,
      now: () => new Date('2030-01-01T00:00:00.000Z'),
    });
    try {
      const tok = (await limited.userToken()).access_token;
      const results = [];
      for (let i = 0; i < 32; i++) results.push(await limited.api('GET', '/v2/users/me', { token: tok }));
      expect(results.slice(0, 30).every((r) => r.status === 200)).toBe(true);
      const last = results[31]!;
      expect(last.status).toBe(429);
      expect(last.headers.get('x-ratelimit-category')).toBe('Light');
      expect(last.headers.get('x-ratelimit-type')).toBe('QPS');
      expect(last.json).toEqual({
        code: 429,
        message: 'You have reached the maximum per-second rate limit for this API. Try again later.',
      });
      // Medium is counted separately.
      expect((await limited.api('GET', '/v2/users/me/meetings', { token: tok })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('faults', () => {
  it('fails the next N matching calls with status and Retry-After, by exact or prefix path', async () => {
    const add = await t.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/users/me', method: 'GET', status: 429, times: 2, retryAfter: '2' },
    });
    expect(add.status).toBe(201);
    const a = await t.api('GET', '/v2/users/me', { token });
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('2');
    expect((await t.api('GET', '/v2/users/me', { token })).status).toBe(429);
    expect((await t.api('GET', '/v2/users/me', { token })).status).toBe(200);
    await t.api('POST', '/_sandbox/faults', { body: { path: '/v2/meetings/*', status: 503, times: 1 } });
    expect((await t.api('GET', '/v2/meetings/123', { token })).status).toBe(503);
    expect((await t.api('GET', '/v2/meetings/123', { token })).status).toBe(404);
  });

  it('drops the connection for status 0, and clears', async () => {
    await t.api('POST', '/_sandbox/faults', { body: { path: '/v2/users/me', status: 0, times: 5 } });
    await expect(t.api('GET', '/v2/users/me', { token })).rejects.toThrow();
    expect((await t.api('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect((await t.api('GET', '/v2/users/me', { token })).status).toBe(200);
  });

  it('validates fault definitions', async () => {
    const r = await t.api('POST', '/_sandbox/faults', { body: { path: '', status: 'x' } });
    expect(r.status).toBe(400);
  });

  it('counts requests by concrete path', async () => {
    const stats = (await t.api('GET', '/_sandbox/stats')).json;
    expect(stats.requests['GET /v2/users/me']).toBeGreaterThan(3);
    // The last token issued, and a working one.
    expect(stats.lastAccessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await t.api('GET', '/v2/users/me', { token: stats.lastAccessToken })).status).toBe(200);
  });
});

describe('webhooks out', () => {
  let server: Server;
  let url: string;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let failFirst = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (failFirst > 0) {
          failFirst -= 1;
          res.writeHead(500).end();
        } else res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('signs compact JSON with v0=HMAC-SHA256 and retries after a 5xx', async () => {
    const w = await startTestEmulator({ webhookUrl: url });
    try {
      const tok = (await w.userToken()).access_token;
      failFirst = 1;
      const created = await w.api('POST', '/v2/users/me/meetings', {
        token: tok,
        body: { topic: 'Hooked', start_time: '2030-02-02T10:00:00Z' },
      });
      await eventually(() =>
        expect(received.filter((r) => r.body.includes('"meeting.created"'))).toHaveLength(2),
      );
      const delivered = received.filter((r) => r.body.includes('"meeting.created"'))[1]!;
      const ts = String(delivered.headers['x-zm-request-timestamp']);
      const expected = `v0=${createHmac('sha256', 'sandbox-webhook-secret').update(`v0:${ts}:${delivered.body}`).digest('hex')}`;
      expect(delivered.headers['x-zm-signature']).toBe(expected);
      const env = JSON.parse(delivered.body);
      expect(delivered.body).toBe(JSON.stringify(env));
      expect(env).toMatchObject({
        event: 'meeting.created',
        payload: { object: { id: created.json.id, topic: 'Hooked' } },
      });
      expect(typeof env.event_ts).toBe('number');
      await w.api('POST', '/_sandbox/webhooks/send', {
        body: { event: 'meeting.started', object: { id: String(created.json.id) } },
      });
      await eventually(() => expect(received.some((r) => r.body.includes('"meeting.started"'))).toBe(true));
      const log = (await w.api('GET', '/_sandbox/webhooks')).json.deliveries;
      expect(
        log
          .find((d: { event: string }) => d.event === 'meeting.created')
          .attempts.map((a: { status: number }) => a.status),
      ).toEqual([500, 200]);
    } finally {
      await w.close();
    }
  });
});

describe('state', () => {
  it('reset brings back the seeded data', async () => {
    const m = await t.api('POST', '/v2/users/me/meetings', { token, body: { topic: 'Temporary' } });
    expect((await t.api('GET', `/v2/meetings/${m.json.id}`, { token })).status).toBe(200);
    expect((await t.api('POST', '/_sandbox/reset')).status).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${m.json.id}`, { token })).status).toBe(404);
    expect((await t.api('GET', '/v2/users/me', { token })).status).toBe(200);
  });

  it('persists tokens and created meetings across a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-state-'));
    try {
      const a = await startTestEmulator({ dataDir: dir });
      const pair = await a.userToken();
      const m = await a.api('POST', '/v2/users/me/meetings', {
        token: pair.access_token,
        body: { topic: 'Survives restart' },
      });
      await a.close();
      const b = await startTestEmulator({ dataDir: dir });
      try {
        const got = await b.api('GET', `/v2/meetings/${m.json.id}`, { token: pair.access_token });
        expect(got.status).toBe(200);
        expect(got.json.topic).toBe('Survives restart');
      } finally {
        await b.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('seeds the same data every time (deterministic)', async () => {
    const a = await startTestEmulator();
    const b = await startTestEmulator();
    try {
      const ta = (await a.userToken()).access_token;
      const tb = (await b.userToken()).access_token;
      const la = await a.api('GET', '/v2/users/me/meetings', { token: ta, query: { page_size: 300 } });
      const lb = await b.api('GET', '/v2/users/me/meetings', { token: tb, query: { page_size: 300 } });
      expect(la.json.meetings.map((m: { id: number }) => m.id)).toEqual(
        lb.json.meetings.map((m: { id: number }) => m.id),
      );
      expect(la.json.total_records).toBeGreaterThanOrEqual(30);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
