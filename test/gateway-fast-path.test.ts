/**
 * The gateway read fast path (in front of Fastify, real sockets only) must answer a keyed GET of
 * a capability view exactly as the Fastify route does (app.inject): same status, headers and
 * bytes, errors in the one shape with their headers; spend the operator's rate-limit budget once;
 * count and log the request; and leave to Fastify (proven by its "incoming request" log line)
 * everything else: no key, a wrong key, a session cookie, HEAD, a body, paths that are not views.
 */
import { createHash } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFastPath } from '../src/http/gateway-fast-path.js';
import { createLogger } from '../src/log.js';
import { API_KEY, startGateway, type GatewayEnv } from './gateway/helpers.js';
import { stableHeaders } from './helpers/stable-headers.js';

const LIMIT = 30;
let e: GatewayEnv;
/** Requests Fastify routed since the last reset (it logs "incoming request"; the fast path does not). */
let seen = 0;
const routed = () =>
  e
    .logs()
    .slice(seen)
    .map((l) => JSON.parse(l) as { msg?: string; req?: { method?: string; url?: string } })
    .filter((l) => l.msg === 'incoming request')
    .map((l) => `${l.req?.method} ${l.req?.url}`);
const resetRouted = () => (seen = e.logs().length);

beforeAll(async () => {
  e = await startGateway({ env: { FLEETGATE_RATE_LIMIT_API: String(LIMIT) } });
  await e.link();
});
afterAll(() => e.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const AUTH = { authorization: `Bearer ${API_KEY}` };

function overSocket(
  path: string,
  headers: Record<string, string> = AUTH,
  opts: { method?: string; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: new URL(e.base).port, path, method: opts.method ?? 'GET', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function viaFastify(path: string, headers: Record<string, string> = AUTH): Promise<Answer> {
  const r = await e.app.inject({ method: 'GET', url: path, headers });
  return { status: r.statusCode, headers: r.headers as Record<string, string>, body: r.body };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('a keyed GET of a capability view', () => {
  const cases: [string, string][] = [
    // Pages end within the range: the platform's page tokens differ per call.
    ['a list with its query', `/api/video/recordings?from=${day(-20)}&to=${day(0)}&limit=30`],
    ['a list with the defaults', '/api/video/contacts'],
    ['input the operation refuses (400)', '/api/video/recordings?limit=0&from=yesterday'],
    ['a query key given twice (400)', '/api/video/recordings?limit=1&limit=2'],
    ['a path parameter the platform does not know (404)', '/api/video/recordings/999999999999'],
    ['an encoded path parameter', '/api/video/recordings/abc%2Fdef%3D%3D'],
  ];
  it.each(cases)('answers %s as the route does, without routing it', async (_name, path) => {
    resetRouted();
    const fast = await overSocket(path);
    expect(routed()).toEqual([]);
    const routedAnswer = await viaFastify(path);
    expect(fast.status).toBe(routedAnswer.status);
    expect(stableHeaders(fast.headers)).toEqual(stableHeaders(routedAnswer.headers));
    expect(JSON.parse(fast.body)).toEqual(JSON.parse(routedAnswer.body));
    expect(fast.body).toBe(routedAnswer.body);
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(fast.headers['content-security-policy']).toContain("default-src 'none'");
    expect(fast.headers['ratelimit-limit']).toBe(String(LIMIT));
  });

  it('keeps a sane caller request id, else makes one, and logs the request once', async () => {
    resetRouted();
    const given = await overSocket('/api/video/contacts?limit=1', { ...AUTH, 'x-request-id': 'trace-42' });
    expect(given.headers['x-request-id']).toBe('trace-42');
    const made = await overSocket('/api/video/contacts?limit=1');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const lines = e
      .logs()
      .slice(seen)
      .map((l) => JSON.parse(l) as { msg?: string; reqId?: string; res?: { statusCode?: number } });
    expect(
      lines.filter((l) => l.msg === 'request completed').map((l) => [l.reqId, l.res?.statusCode]),
    ).toEqual([
      ['trace-42', 200],
      [made.headers['x-request-id'], 200],
    ]);
    expect(e.logs().slice(seen).join('\n')).not.toContain(API_KEY);
  });

  it('counts the request under its route pattern', async () => {
    const count = async () => {
      const text = (await viaFastify('/metrics')).body;
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('fleetgate_http_requests_total{') &&
            l.includes('route="/api/video/recordings/:video_id"') &&
            l.includes('status="404"'),
        );
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await count();
    await overSocket('/api/video/recordings/123123123123');
    expect(await count()).toBe(before + 1);
  });

  it('spends the operator budget once per request, and leaves the refusal to the route', async () => {
    const first = await overSocket('/api/video/contacts?limit=1');
    const second = await overSocket('/api/video/contacts?limit=1');
    expect(Number(second.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 1,
    );
    let last = second;
    for (let i = 0; i <= LIMIT && last.status !== 429; i++)
      last = await overSocket('/api/video/contacts?limit=1');
    expect(last.status).toBe(429);
    expect(JSON.parse(last.body).error.code).toBe('rate_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Refused by the route (Fastify's rate-limit hook), which logs it as routed.
    expect(routed()).toContain('GET /api/video/contacts?limit=1');
  });
});

describe('everything else goes on to Fastify', () => {
  const cases: [string, string, Record<string, string>, { method?: string; body?: string }?][] = [
    ['no key', '/api/video/contacts', {}],
    ['a wrong key', '/api/video/contacts', { authorization: 'Bearer not-the-key' }],
    ['a session cookie', '/api/video/contacts', { cookie: 'fg_session=forged' }],
    ['HEAD', '/api/video/contacts', AUTH, { method: 'HEAD' }],
    [
      'a body',
      '/api/video/contacts',
      { ...AUTH, 'content-type': 'application/json', 'content-length': '2' },
      { body: '{}' },
    ],
    ['a path that is no view', '/api/video/status', AUTH],
    ['an unknown path', '/api/video/nothing-here', AUTH],
    ['a malformed path', '/api/video/recordings/%E0%A4%A', AUTH],
  ];
  it.each(cases)('%s', async (_name, path, headers, opts) => {
    resetRouted();
    const r = await overSocket(path, headers, opts);
    expect(routed()).toHaveLength(1);
    if (r.status >= 400 && opts?.method !== 'HEAD')
      expect(JSON.parse(r.body).error.code).toEqual(expect.any(String));
  });

  it('once the app is closing', async () => {
    let closing = false;
    const reads = gatewayFastPath({
      secrets: { apiKeyHash: createHash('sha256').update('k').digest() },
      log: createLogger('silent'),
      closing: () => closing,
    });
    let runs = 0;
    reads.add('/api/video/x', 200, () => Promise.resolve({ runs: ++runs }));
    const req = {
      method: 'GET',
      url: '/api/video/x',
      headers: { authorization: 'Bearer k' },
    } as IncomingMessage;
    const written: unknown[] = [];
    const res = {
      writeHead: (...a: unknown[]) => written.push(a),
      cork: () => undefined,
      write: () => true,
      end: (body: unknown) => written.push(body),
    } as unknown as ServerResponse;
    const fastify = () => expect.fail('open: the fast path answers');
    expect(reads.serve(req, res, fastify)).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(written.at(-1)).toBe('{"runs":1}');
    closing = true;
    expect(reads.serve(req, res, fastify)).toBe(false);
    expect(runs).toBe(1);
  });
});

describe('results that are not JSON objects', () => {
  // What Fastify's reply.send does with each kind of result, asked of Fastify itself.
  const results: [string, unknown][] = [
    ['an object', { a: 1 }],
    ['null', null],
    ['a string', 'plain words'],
    ['bytes', Buffer.from([1, 2, 3])],
    ['nothing', undefined],
  ];
  it.each(results)('%s is sent as Fastify sends it', async (_name, result) => {
    const plain = Fastify();
    plain.get('/', () => Promise.resolve(result));
    const routed = await plain.inject({ method: 'GET', url: '/' });
    await plain.close();

    const reads = gatewayFastPath({
      secrets: { apiKeyHash: createHash('sha256').update('k').digest() },
      log: createLogger('silent'),
      closing: () => false,
    });
    reads.add('/api/video/x', 200, () => Promise.resolve(result));
    const req = {
      method: 'GET',
      url: '/api/video/x',
      headers: { authorization: 'Bearer k' },
    } as IncomingMessage;
    const head: Record<string, string> = {};
    let body = Buffer.alloc(0);
    const res = {
      writeHead: (_status: number, flat: string[]) => {
        for (let i = 0; i < flat.length; i += 2) head[flat[i] as string] = flat[i + 1] as string;
      },
      cork: () => undefined,
      write: () => true,
      end: (b?: string | Buffer) => (body = b === undefined ? body : Buffer.from(b)),
    } as unknown as ServerResponse;
    expect(reads.serve(req, res, () => expect.fail('the fast path answers'))).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(head['content-type']).toBe(routed.headers['content-type']);
    expect(body.equals(routed.rawPayload)).toBe(true);
    expect(head['content-length']).toBe(String(routed.rawPayload.length));
  });
});
