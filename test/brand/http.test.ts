/**
 * Over a real socket: conditional GET, content-coding, HEAD, and traversal attempts sent
 * byte-for-byte (node:http does not normalise the path the way fetch and curl do).
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
function raw(path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('brand over HTTP', () => {
  it('serves every brand endpoint', async () => {
    for (const p of [
      '/api/brand',
      '/api/brand/tokens',
      '/api/brand/tokens.css',
      '/api/brand/themes',
      '/api/brand/themes/freight',
      '/api/brand/assets',
      '/api/brand/docs',
      '/api/brand/fonts',
      '/api/brand/llms.txt',
      '/llms.txt',
      '/static/fleet/design-tokens.css',
      '/static/fleet/assets/logo-horizontal-light.png',
      '/favicon.ico',
    ]) {
      const res = await raw(p);
      expect(res.status, p).toBe(200);
      expect(Number(res.headers['content-length']), p).toBe(res.body.length);
    }
  });

  it('answers If-None-Match with 304 and no body, for every encoding', async () => {
    const first = await raw('/api/brand/tokens');
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    for (const enc of ['identity', 'gzip', 'br']) {
      const res = await raw('/api/brand/tokens', {
        headers: { 'if-none-match': etag, 'accept-encoding': enc },
      });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
      // A 304 keeps the 200's caching instructions (RFC 9110 §15.4.5).
      expect(res.headers['cache-control']).toBe(first.headers['cache-control']);
    }
    const br = await raw('/api/brand/tokens', { headers: { 'accept-encoding': 'br' } });
    const again = await raw('/api/brand/tokens', {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) },
    });
    expect(again.status).toBe(304);
    const changed = await raw('/api/brand/tokens', { headers: { 'if-none-match': '"something-else"' } });
    expect(changed.status).toBe(200);
  });

  it('compresses with brotli or gzip as asked, to the same bytes', async () => {
    const plain = await raw('/api/brand/docs');
    const gz = await raw('/api/brand/docs', { headers: { 'accept-encoding': 'gzip' } });
    const br = await raw('/api/brand/docs', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const refuseBr = await raw('/api/brand/docs', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(refuseBr.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['etag']).not.toBe(plain.headers['etag']);
    const png = await raw('/static/fleet/assets/logo-horizontal-light.png', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(png.headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await raw('/api/brand/themes');
    const head = await raw('/api/brand/themes', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.headers['etag']).toBe(get.headers['etag']);
  });

  it('serves SVG with nosniff and a restrictive CSP', async () => {
    const svg = await raw('/static/fleet/assets/logo-horizontal-light.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.headers['content-security-policy']).toContain("default-src 'none'");
    expect(svg.body.toString()).not.toContain('<text');
  });

  it.each([
    '/static/fleet/../package.json',
    '/static/fleet/..%2fpackage.json',
    '/static/fleet/%2e%2e/package.json',
    '/static/fleet/%2E%2E/%2E%2E/package.json',
    '/static/fleet/assets/..%2f..%2f..%2fpackage.json',
    '/static/fleet/assets%2f..%2f..%2fbrand.json',
    '/static/fleet/%252e%252e/package.json',
    '/static/fleet/..\\..\\package.json',
    '/static/fleet/assets/icons/../../../../etc/passwd',
    '/static/fleet/design-tokens.css%00.png',
  ])('never escapes the static folder: %s', async (p) => {
    const res = await raw(p);
    expect([400, 404]).toContain(res.status);
    expect(res.body.toString()).not.toContain('"name": "fleetgate"');
    expect(res.body.toString()).not.toContain('root:');
    const body = JSON.parse(res.body.toString()) as { error: { code: string } };
    expect(body.error.code).toMatch(/^[a-z_]+$/);
  });
});
