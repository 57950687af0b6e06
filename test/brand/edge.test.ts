/**
 * The edge (in front of Fastify, real sockets only) must answer the brand routes exactly as the
 * Fastify routes do (app.inject): same status, headers and bytes for every catalog path, every
 * content-coding, conditional GETs, HEAD and query strings; everything else falls through.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS } from '../../src/app.js';
import { createMetrics } from '../../src/http/metrics.js';
import { DENY_ALL_CSP, SECURITY_HEADERS } from '../../src/http/security-headers.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let port: number;
const metrics = createMetrics({ processMetrics: false });
beforeAll(async () => {
  t = await buildTestApp({ metrics });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

// Per-connection and per-request headers, which legitimately differ between the two paths.
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding']);
const stable = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k.toLowerCase())));

function overSocket(path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: stable(res.headers),
          body: Buffer.concat(chunks).toString('base64'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function inProcess(path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  const r = await t.app.inject({ method: method as 'GET' | 'HEAD', url: path, headers });
  return { status: r.statusCode, headers: stable(r.headers), body: r.rawPayload.toString('base64') };
}

describe('the edge on brand routes', () => {
  it('answers every catalog path exactly as the Fastify routes do', async () => {
    const paths = [...t.brand.current.responses.keys()];
    expect(paths.length).toBeGreaterThan(100);
    const cases: [string, string, Record<string, string>][] = [];
    for (const p of paths) {
      const etag = t.brand.current.responses.get(p)?.etag ?? '';
      cases.push(
        [p, 'GET', {}],
        [p, 'GET', { 'accept-encoding': 'br, gzip' }],
        [p, 'GET', { 'accept-encoding': 'gzip;q=1, br;q=0.5' }],
        [p, 'HEAD', { 'accept-encoding': 'gzip' }],
        [p, 'GET', { 'if-none-match': etag }],
        [`${p}?v=1`, 'GET', {}],
      );
    }
    for (const [p, method, headers] of cases) {
      const [socket, inject] = await Promise.all([
        overSocket(p, method, headers),
        inProcess(p, method, headers),
      ]);
      expect({ case: [p, method, headers], ...socket }).toEqual({ case: [p, method, headers], ...inject });
    }
  });

  it('keeps a sane caller request id and makes one otherwise', async () => {
    const mine = await new Promise<string | undefined>((resolve, reject) =>
      request(
        { host: '127.0.0.1', port, path: '/api/brand', headers: { 'x-request-id': 'trace-42' } },
        (res) => {
          res.resume();
          resolve(res.headers['x-request-id'] as string | undefined);
        },
      )
        .on('error', reject)
        .end(),
    );
    expect(mine).toBe('trace-42');
    const r = await fetch(`http://127.0.0.1:${port}/api/brand`, { headers: { 'x-request-id': 'bad id!' } });
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves other methods, unknown and encoded paths to Fastify', async () => {
    const post = await fetch(`http://127.0.0.1:${port}/api/brand/tokens`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    const options = await fetch(`http://127.0.0.1:${port}/api/brand/tokens`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    const encoded = await overSocket('/api/brand/%74okens', 'GET', {});
    expect(encoded.status).toBe(404);
    expect(JSON.parse(Buffer.from(encoded.body, 'base64').toString())).toMatchObject({
      error: { code: 'not_found' },
    });
    const theme = await overSocket('/api/brand/themes/nope', 'GET', {});
    expect(theme.status).toBe(404);
  });

  it('answers brand 4xx with the same CORS header as its 2xx, on both paths', async () => {
    const cases: [string, string, number, string][] = [
      ['/api/brand/themes/nope', 'GET', 404, 'theme_not_found'],
      ['/api/brand/themes/nope', 'HEAD', 404, ''],
      ['/api/brand/tokens?format=bad', 'GET', 400, 'unknown_format'],
      ['/api/brand/tokens?theme=nope', 'GET', 400, 'unknown_theme'],
      ['/api/brand/tokens?version=1.0.0', 'GET', 404, 'version_not_found'],
      ['/static/fleet/missing.svg', 'GET', 404, 'not_found'],
      ['/static/fleet/missing.svg', 'HEAD', 404, ''],
      ['/api/brand/%74okens', 'GET', 404, 'not_found'],
      // No route at all under /api/brand, and a brand route asked with a method it has not.
      ['/api/brand/nope', 'GET', 404, 'not_found'],
      ['/api/brand/themes/freight/nope', 'GET', 404, 'not_found'],
      ['/api/brand/tokens', 'POST', 405, 'method_not_allowed'],
      ['/api/brand/themes', 'DELETE', 405, 'method_not_allowed'],
    ];
    const ok = await overSocket('/api/brand/themes/freight', 'GET', {});
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    for (const [p, method, status, code] of cases) {
      for (const [how, a] of [
        ['socket', await overSocket(p, method, {})],
        ['inject', await inProcess(p, method, {})],
      ] as const) {
        expect({ how, p, method, status: a.status, cors: a.headers['access-control-allow-origin'] }).toEqual({
          how,
          p,
          method,
          status,
          cors: '*',
        });
        if (code)
          expect(JSON.parse(Buffer.from(a.body, 'base64').toString())).toMatchObject({ error: { code } });
      }
    }
  });

  it('sends the security headers and is counted in the metrics by route pattern', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/api/brand/tokens`);
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(r.headers.get(name), name).toBe(value);
    expect(r.headers.get('content-security-policy')).toBe(DENY_ALL_CSP);
    const svg = await fetch(`http://127.0.0.1:${port}/static/fleet/assets/icons/icon.svg`);
    expect(svg.headers.get('content-security-policy')).toContain('img-src data:');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /fleetgate_http_requests_total\{[^}]*route="\/api\/brand\/tokens"[^}]*status="200"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(/fleetgate_http_requests_total\{[^}]*route="\/static\/fleet\/\*"[^}]*\} [1-9]/);
  });

  it('keeps idle connections for 72 s on both paths, as Fastify does for servers it makes', async () => {
    const keepAlive = (path: string) =>
      new Promise<string | undefined>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path }, (res) => {
          res.resume();
          resolve(res.headers['keep-alive'] as string | undefined);
        })
          .on('error', reject)
          .end(),
      );
    expect(await keepAlive('/api/brand/tokens')).toBe('timeout=72');
    expect(await keepAlive('/healthz')).toBe('timeout=72');
    expect(t.app.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
  });
});
