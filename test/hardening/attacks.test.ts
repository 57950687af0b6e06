/**
 * Attacks, systematically, where the feature suites test one case each: the auth matrix over
 * every private operation of the OpenAPI document; webhook replays and forgeries the signature
 * suite does not cover; OAuth code replay and open-redirect attempts; static traversal in every
 * encoding (a property); MCP Host (DNS rebinding); and SSRF: whatever a caller sends, every
 * outbound request goes to the configured platform origin, under its API path.
 */
import { createHash, createHmac } from 'node:crypto';
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/http/auth/csrf.js';
import { issueSession, SESSION_COOKIE, SESSION_TTL_MS } from '../../src/http/auth/session.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { enc, fromSchema, FUZZ, hostileString, operations, runs, type Operation } from './arbitraries.js';
import { HARDENING_ENV } from './expect.js';
import { storedEvents } from '../helpers/stored-events.js';

const outbound: string[] = [];
const watching: typeof fetch = (input, init) => {
  outbound.push(input instanceof Request ? input.url : String(input));
  return fetch(input, init);
};

let e: GatewayEnv;
let privateOps: Operation[];
beforeAll(async () => {
  e = await startGateway({ env: HARDENING_ENV, fetch: watching });
  await e.link();
  privateOps = operations((await e.api('GET', '/openapi.json')).json).filter((o) => o.auth);
}, 60_000);
afterAll(() => e.close());

const keyHash = createHash('sha256').update(API_KEY).digest();
const platformCalls = async () =>
  Object.entries((await e.emu.api('GET', '/_sandbox/stats')).json.requests as Record<string, number>)
    .filter(([k]) => k.includes(' /v2/'))
    .reduce((n, [, c]) => n + c, 0);

/** A session made by signing in (the store holds it), as a browser's cookie value. */
async function signedInSession(): Promise<string> {
  const r = await e.app.inject({
    method: 'POST',
    url: '/dashboard/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `key=${API_KEY}`,
  });
  const set = [r.headers['set-cookie']].flat().find((c) => c?.startsWith(`${SESSION_COOKIE}=`));
  const value = set?.split(';')[0]?.slice(SESSION_COOKIE.length + 1);
  if (r.statusCode !== 303 || !value) throw new Error(`sign-in failed: ${r.statusCode}`);
  return value;
}

describe('auth matrix over every private operation', () => {
  let signedIn = '';
  beforeAll(async () => {
    signedIn = await signedInSession();
  });
  const expired = issueSession(keyHash, Date.now() - SESSION_TTL_MS - 60_000).token;
  const forged = `${Date.now() + 3_600_000}.${'A'.repeat(22)}.${'B'.repeat(43)}`;
  const otherKey = issueSession(
    createHash('sha256').update('another-key-0123456789abcdef').digest(),
    Date.now(),
  ).token;
  const WRONG: [string, Record<string, string>, string][] = [
    ['no key', {}, ''],
    ['wrong key', { authorization: 'Bearer wrong-key-0123456789abcdef' }, ''],
    ['key plus a byte', { authorization: `Bearer ${API_KEY}x` }, ''],
    ['key without scheme', { authorization: API_KEY }, ''],
    ['key as Basic', { authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString('base64')}` }, ''],
    ['key in x-api-key', { 'x-api-key': API_KEY }, ''],
    ['key in a cookie', { cookie: `api_key=${API_KEY}` }, ''],
    ['key in the query', {}, `api_key=${API_KEY}`],
    ['key as access_token', {}, `access_token=${API_KEY}`],
    ['expired session', { cookie: `${SESSION_COOKIE}=${expired}` }, ''],
    ['forged session', { cookie: `${SESSION_COOKIE}=${forged}` }, ''],
    ['session of another key', { cookie: `${SESSION_COOKIE}=${otherKey}` }, ''],
    // Signed with the key, but never signed in (or signed out since): no session in the store.
    [
      'session never signed in',
      { cookie: `${SESSION_COOKIE}=${issueSession(keyHash, Date.now()).token}` },
      '',
    ],
  ];

  it('refuses every wrong credential on every private operation, before any work is done', async () => {
    expect(privateOps.length).toBeGreaterThan(30);
    const calls = await platformCalls();
    const events = (await storedEvents(e.store, {})).length;
    let refused = 0;
    for (const op of privateOps) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const beside: (typeof WRONG)[number] = [
        'wrong key beside a valid session',
        { authorization: 'Bearer nope', cookie: `${SESSION_COOKIE}=${signedIn}` },
        '',
      ];
      for (const [name, headers, query] of [...WRONG, beside]) {
        const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}';
        const res = await e.app.inject({
          method: op.method as 'GET',
          url: query ? `${path}?${query}` : path,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: body } : {}),
        });
        expect(res.statusCode, `${op.method} ${path}: ${name}`).toBe(401);
        const answer = JSON.parse(res.body) as { error: unknown };
        // The gateway's MCP endpoint refuses as OAuth resource servers do (RFC 6750); every
        // other path in the one shape.
        if (path.endsWith('/mcp')) expect(answer).toMatchObject({ error: 'invalid_token' });
        else expect(answer).toMatchObject({ error: { code: 'unauthorized' } });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
        refused += 1;
      }
    }
    console.log(`[attacks:auth] operations=${privateOps.length} refused=${refused}`);
    expect(await platformCalls()).toBe(calls);
    expect((await storedEvents(e.store, {})).length).toBe(events);
  }, 60_000);

  it('a valid session writes only with its CSRF token', async () => {
    const session = signedIn;
    // The gateway MCP endpoint takes the API key only (no cookie), so it is not in this matrix.
    for (const op of privateOps.filter((o) => o.method !== 'GET' && !o.path.endsWith('/mcp'))) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const res = await e.app.inject({
        method: op.method as 'POST',
        url: path,
        headers: {
          cookie: `${SESSION_COOKIE}=${session}`,
          [CSRF_HEADER]: 'forged',
          'content-type': 'application/json',
        },
        payload: '{}',
      });
      expect(res.statusCode, `${op.method} ${path}`).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('csrf_token_required');
    }
  });
});

describe('webhook forgeries beyond the signature suite', () => {
  const sign = (ts: string, body: string, secret = 'sandbox-webhook-secret') =>
    `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  const deliver = (body: string, headers: Record<string, string>) =>
    e.app.inject({
      method: 'POST',
      url: '/api/video/webhooks',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  it('refuses a future timestamp, a signature moved to another timestamp, and non-numeric times', async () => {
    const body = JSON.stringify({ event: 'meeting.started', payload: { object: { id: 'nope' } } });
    const ts = String(Math.floor(Date.now() / 1000));
    const future = String(Math.floor(Date.now() / 1000) + 600);
    const cases: [string, Record<string, string>][] = [
      ['only a timestamp', { 'x-zm-request-timestamp': ts }],
      ['only a signature', { 'x-zm-signature': sign(ts, body) }],
      ['future timestamp', { 'x-zm-request-timestamp': future, 'x-zm-signature': sign(future, body) }],
      [
        'signature of another time',
        { 'x-zm-request-timestamp': String(Number(ts) - 1), 'x-zm-signature': sign(ts, body) },
      ],
      ['timestamp not a number', { 'x-zm-request-timestamp': 'soon', 'x-zm-signature': sign('soon', body) }],
      [
        'signature in upper case',
        { 'x-zm-request-timestamp': ts, 'x-zm-signature': sign(ts, body).toUpperCase() },
      ],
      ['empty secret', { 'x-zm-request-timestamp': ts, 'x-zm-signature': sign(ts, body, '') }],
    ];
    for (const [name, headers] of cases) {
      const res = await deliver(body, headers);
      expect(res.statusCode, name).toBe(401);
    }
  });

  it('treats a captured delivery replayed under a new request id as the duplicate it is', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: { topic: 'Replay guard', start_time: '2031-01-02T10:00:00Z' },
    });
    const id = String(c.json.video_id);
    const body = JSON.stringify({ event: 'meeting.ended', payload: { object: { id } } });
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = {
      'x-zm-request-timestamp': ts,
      'x-zm-signature': sign(ts, body),
      'x-zm-request-id': 'r-1',
    };
    expect(JSON.parse((await deliver(body, headers)).body)).toEqual({ received: true });
    // The request id is not signed, so an attacker can change it; the signed bytes are the same.
    await e.store.updateEvent(id, { status: 'scheduled' });
    const replay = await deliver(body, { ...headers, 'x-zm-request-id': 'r-2' });
    expect(JSON.parse(replay.body)).toEqual({ received: true, duplicate: true });
    expect((await e.store.getEvent(id))?.status).toBe('scheduled');
  });
});

describe('OAuth', () => {
  it('refuses a replayed callback after a successful link, and never redirects off-site', async () => {
    const start = await fetch(
      `${e.base}/api/video/oauth/start?redirect_uri=https://evil.example&next=//evil.example`,
      {
        headers: { authorization: `Bearer ${API_KEY}` },
        redirect: 'manual',
      },
    );
    const authorize = new URL(start.headers.get('location') ?? '');
    // Our configured callback, whatever the caller asked for.
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${e.base}/api/video/oauth/callback`);
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const consent = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location') ?? '');
    callback.searchParams.set('next', 'https://evil.example/');
    callback.searchParams.set('redirect_uri', '//evil.example');
    const first = await fetch(callback, { headers: { cookie }, redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/dashboard?linked=1');
    const grants = (await e.emu.api('GET', '/_sandbox/stats')).json.tokenGrants.authorization_code;
    const replay = await fetch(callback, {
      headers: { cookie, accept: 'application/json' },
      redirect: 'manual',
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: { code: string } }).error.code).toBe('invalid_state');
    // The code was not even offered to the platform again.
    expect((await e.emu.api('GET', '/_sandbox/stats')).json.tokenGrants.authorization_code).toBe(grants);
  });

  it('sends the dashboard nowhere but itself, whatever the form or query asks', async () => {
    const res = await e.app.inject({
      method: 'POST',
      url: '/dashboard/login?next=https://evil.example&redirect=//evil.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `key=${API_KEY}&next=${encodeURIComponent('https://evil.example')}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers['location']).toBe('/dashboard');
  });
});

describe('static traversal in every encoding', () => {
  const dot = fc.constantFrom('.', '%2e', '%2E', '%252e', '%c0%ae', '%e0%80%ae', '%u002e', '．', '%ef%bc%8e');
  const slash = fc.constantFrom(
    '/',
    '%2f',
    '%2F',
    '%252f',
    '\\',
    '%5c',
    '%255c',
    '%c0%af',
    '%e0%80%af',
    '／',
    '%ef%bc%8f',
  );
  const target = fc.constantFrom(
    'package.json',
    'etc/passwd',
    'src/config.ts',
    'data/api-key',
    '.env',
    'brand/brand.json',
  );

  it('never leaves the catalog', async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/static/fleet/',
          '/static/fleet/assets/',
          '/static/fleet/docs/',
          '/api/brand/themes/',
        ),
        fc.array(fc.tuple(dot, dot, slash), { minLength: 1, maxLength: 6 }),
        target,
        fc.constantFrom('', '%00', '%00.png', '?x=1', '#x'),
        async (prefix, ups, file, suffix) => {
          const url = `${prefix}${ups.map(([a, b, s]) => `${a}${b}${s}`).join('')}${file}${suffix}`;
          tried += 1;
          const res = await e.app.inject({ method: 'GET', url });
          expect([400, 404], url).toContain(res.statusCode);
          expect(res.body, url).not.toMatch(/"name":\s*"fleetgate"|root:|FLEETGATE_|-----BEGIN/);
          expect(JSON.parse(res.body).error.code).toMatch(/^[a-z_]+$/);
        },
      ),
      { seed: FUZZ.seed, numRuns: runs(600) },
    );
    console.log(`[attacks:traversal] tried=${tried}`);
  });
});

describe('MCP Host (DNS rebinding)', () => {
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const post = (host: string) =>
    e.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: ping,
    });

  it('answers only its own host and loopback names, even without an Origin', async () => {
    for (const host of [
      'evil.example',
      'evil.example:80',
      `attacker.test:${new URL(e.base).port}`,
      '127.0.0.1.evil.example',
      'localhost.evil.example',
    ]) {
      const res = await post(host);
      expect(res.statusCode, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    for (const host of [new URL(e.base).host, 'localhost:3000', '127.0.0.1', '[::1]:8080']) {
      expect((await post(host)).statusCode, host).toBe(200);
    }
  });
});

/** A request whose path goes out byte for byte (fetch would normalise dot segments first). */
function rawRequest(base: string, method: string, path: string, body: string | undefined): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('SSRF', () => {
  const URLISH = fc.constantFrom(
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:22/',
    '//evil.example/x',
    'https://evil.example',
    '..',
    '.',
    '%2e%2e',
    '../../oauth/token',
    '..%2f..%2foauth%2ftoken',
    '@evil.example',
    'evil.example#',
    '?url=http://evil.example',
    'file:///etc/passwd',
  );

  it('sends every outbound request to the platform origin, inside its API path', async () => {
    const ops = operations((await e.api('GET', '/openapi.json')).json).filter(
      (o) => o.auth && o.path.startsWith('/api/video/') && !o.path.includes('oauth'),
    );
    const caps = (await e.api('GET', '/api/video/capabilities')).json.items as {
      group: string;
      name: string;
      inputSchema: Record<string, unknown> | null;
    }[];
    outbound.length = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...ops).chain((op) =>
            fc.record({
              url: fc.constant(op.path).chain((p) =>
                fc
                  .array(fc.oneof({ weight: 3, arbitrary: URLISH }, hostileString), {
                    minLength: 2,
                    maxLength: 2,
                  })
                  .map((vals) => {
                    let i = 0;
                    // Dots encoded too, so `..` reaches the route as a parameter, not as URL syntax.
                    return p.replace(/\{[^}]+\}/g, () =>
                      enc(vals[i++ % vals.length] ?? '').replace(/\./g, '%2E'),
                    );
                  }),
              ),
              method: fc.constant(op.method),
              body: op.body ? fromSchema(op.body, 1).map((b) => JSON.stringify(b)) : fc.constant(undefined),
            }),
          ),
          fc.constantFrom(...caps.filter((c) => c.inputSchema)).chain((c) =>
            fc.record({
              url: fc.constant(`/api/video/capabilities/${c.group}/${c.name}`),
              method: fc.constant('POST'),
              // Every string field is something shaped like a URL or a path.
              body: fc
                .tuple(fromSchema(c.inputSchema ?? {}, 0), URLISH)
                .map(([b, url]) =>
                  JSON.stringify(b, (k, v: unknown) =>
                    typeof v === 'string' && /id$|url|path|uri/i.test(k) ? url : v,
                  ),
                ),
            }),
          ),
        ),
        async (r) => {
          // Over a real socket: an in-process inject would resolve `%2E%2E` before routing.
          await rawRequest(e.base, r.method, r.url, r.body);
        },
      ),
      { seed: FUZZ.seed, numRuns: runs(300) },
    );
    const emu = new URL(e.emu.base);
    expect(outbound.length).toBeGreaterThan(50);
    for (const raw of outbound) {
      const u = new URL(raw);
      expect(u.origin, raw).toBe(emu.origin);
      expect(
        u.pathname.startsWith('/v2/') || u.pathname === '/mcp' || u.pathname.startsWith('/oauth/'),
        raw,
      ).toBe(true);
      // No dot segment survives into the URL we send (the URL parser would climb out on it).
      expect(raw.split('?')[0], raw).not.toMatch(/\/(\.|%2e){1,2}(\/|$)/i);
    }
    console.log(`[attacks:ssrf] outbound=${outbound.length} all to ${emu.origin}`);
  }, 60_000);

  it('the platform client itself refuses a path that would resolve elsewhere', async () => {
    outbound.length = 0;
    for (const path of ['/meetings/..', '/meetings/../users/me', '/clips/./x', '/phone/%2E%2E/x', '/x/%2e']) {
      await expect(
        e.gateway.platform.call({ method: 'DELETE', path, label: 'LIGHT', group: 'meetings' }),
        path,
      ).rejects.toMatchObject({ status: 400 });
    }
    expect(outbound).toEqual([]);
  });
});
