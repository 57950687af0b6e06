/**
 * POST /mcp over a real socket, through the one pipeline: a cached answer with the caller's id
 * spliced in, the same bytes as app.inject; the security headers, a request id, the rate-limit
 * headers and the metrics count; CORS for allowed origins and 403 for foreign ones; misses, bad,
 * chunked and wrongly typed bodies answered; a client that goes away mid-body; and one budget
 * shared by every POST, refused in JSON-RPC with Retry-After.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import { DENY_ALL_CSP, SECURITY_HEADERS } from '../../src/http/security-headers.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { stableHeaders } from '../helpers/stable-headers.js';

const ORIGIN = 'https://agent.example';
const LIMIT = 40;
let t: TestApp;
let port: number;
const metrics = createMetrics({ processMetrics: false });
beforeAll(async () => {
  t = await buildTestApp({
    metrics,
    env: { FLEETGATE_RATE_LIMIT_MCP: String(LIMIT), MCP_ALLOWED_ORIGINS: ORIGIN },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

function overSocket(
  body: string,
  headers: Record<string, string> = HEADERS,
  opts: { path?: string; chunked?: boolean } = {},
): Promise<Answer & { raw: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: opts.path ?? '/mcp',
        method: 'POST',
        headers: opts.chunked ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: stableHeaders(res.headers),
            raw: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (opts.chunked) {
      req.write(body.slice(0, 10));
      req.end(body.slice(10));
    } else req.end(body);
  });
}

async function inProcess(body: string, headers: Record<string, string> = HEADERS): Promise<Answer> {
  const r = await t.app.inject({ method: 'POST', url: '/mcp', headers, payload: body });
  return { status: r.statusCode, headers: stableHeaders(r.headers), body: r.body };
}

const call = (id: unknown, method: string, params?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

describe('POST /mcp', () => {
  it('answers a cached call over a socket exactly as app.inject, with the caller id spliced in', async () => {
    const cases = [
      call(1, 'tools/call', { name: 'get_brand_tokens', arguments: {} }),
      call('abc-"quoted"', 'tools/call', { name: 'get_brand_tokens', arguments: {} }),
      call(7, 'tools/list'),
      call(8, 'resources/list'),
      call(9, 'ping'),
    ];
    for (const body of cases) {
      await overSocket(body); // the first answer fills the cache
      const [socket, inject] = await Promise.all([overSocket(body), inProcess(body)]);
      expect({ case: body, ...socket, raw: undefined }).toEqual({ case: body, ...inject, raw: undefined });
      expect(JSON.parse(socket.body)).toMatchObject({ jsonrpc: '2.0', id: JSON.parse(body).id });
    }
  });

  it('carries the security headers, a request id, the rate-limit headers and is counted', async () => {
    const body = call(2, 'tools/call', { name: 'get_brand_tokens', arguments: {} });
    await overSocket(body);
    const r = await overSocket(body, { ...HEADERS, 'x-request-id': 'trace-mcp-1' });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(r.raw[name], name).toBe(value);
    expect(r.raw['content-security-policy']).toBe(DENY_ALL_CSP);
    expect(r.raw['x-request-id']).toBe('trace-mcp-1');
    expect(r.raw['ratelimit-limit']).toBe(String(LIMIT));
    expect(Number(r.raw['ratelimit-remaining'])).toBeLessThan(LIMIT);
    expect(Number(r.raw['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(await metrics.registry.metrics()).toMatch(
      /fleetgate_http_requests_total\{method="POST",route="\/mcp",status="200"\} [1-9]/,
    );
  });

  it('echoes an allowed Origin and refuses a foreign Origin or Host', async () => {
    const body = call(3, 'tools/list');
    await overSocket(body);
    const allowed = await overSocket(body, { ...HEADERS, origin: ORIGIN });
    expect(allowed.raw['access-control-allow-origin']).toBe(ORIGIN);
    expect(allowed.raw['vary']).toBe('Origin');
    const foreign = await overSocket(body, { ...HEADERS, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const host = await overSocket(body, { ...HEADERS, host: 'rebound.evil.example' });
    expect(host.status).toBe(403);
  });

  it('answers misses, bad bodies, chunked bodies and other types', async () => {
    const miss = await overSocket(call(4, 'tools/call', { name: 'list_brand_themes', arguments: {} }));
    expect(miss.status).toBe(200);
    expect(JSON.parse(miss.body)).toMatchObject({ id: 4, result: { structuredContent: {} } });
    const bad = await overSocket('{"jsonrpc":"2.0",');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: -32700 } });
    const chunked = await overSocket(call(5, 'tools/list'), HEADERS, { chunked: true });
    expect(chunked.status).toBe(200);
    expect(JSON.parse(chunked.body)).toMatchObject({ id: 5, result: { tools: expect.any(Array) } });
    const text = await overSocket(call(6, 'tools/list'), { ...HEADERS, 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const query = await overSocket(call(6, 'tools/list'), HEADERS, { path: '/mcp?x=1' });
    expect(query.status).toBe(200);
  });

  it('survives a client that goes away mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { ...HEADERS, 'content-length': '500' },
      });
      req.on('error', () => resolve());
      req.write('{"jsonrpc":"2.0"', () => setTimeout(() => req.destroy(), 20));
      req.on('close', () => resolve());
    });
    const after = await overSocket(call(10, 'ping'));
    expect(after.status).toBe(200);
  });
});

describe('POST /mcp under a tight rate limit', () => {
  let small: TestApp;
  let smallPort: number;
  beforeAll(async () => {
    small = await buildTestApp({ env: { FLEETGATE_RATE_LIMIT_MCP: '3' } });
    await small.app.listen({ port: 0, host: '127.0.0.1' });
    smallPort = (small.app.server.address() as AddressInfo).port;
  });
  afterAll(() => small.close());

  it('spends one budget: 3 answers, then a JSON-RPC 429 with Retry-After', async () => {
    const body = call(1, 'ping');
    const post = () =>
      fetch(`http://127.0.0.1:${smallPort}/mcp`, { method: 'POST', headers: HEADERS, body }).then(
        async (r) => ({ status: r.status, headers: r.headers, body: await r.text() }),
      );
    const answers = [await post(), await post(), await post(), await post()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    const refused = answers[3];
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refused?.body ?? '')).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    // The same budget for app.inject.
    const viaRoute = await small.app.inject({ method: 'POST', url: '/mcp', headers: HEADERS, payload: body });
    expect(viaRoute.statusCode).toBe(429);
  });
});
