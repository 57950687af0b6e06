/**
 * GET /robots.txt: plain text, cacheable (ETag, 304, HEAD), documented in /openapi.json, and
 * read by robots-parser (an RFC 9309 parser we did not write) as letting crawlers into the
 * portal, the brand API, its files and the reference, and keeping them out of the gateway, the
 * dashboard and the metrics; through the edge over a socket too. In a brand-only build and with
 * the gateway alike.
 */
import { createRequire } from 'node:module';
import type robotsModule from 'robots-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';

// CommonJS (module.exports is the parser) whose types declare an ES default export, which
// TypeScript then places one level down from where Node's loader puts it: require it instead.
const robotsParser = createRequire(import.meta.url)('robots-parser') as typeof robotsModule.default;

let brandOnly: TestApp;
let gw: GatewayEnv;
beforeAll(async () => {
  brandOnly = await buildTestApp();
  gw = await startGateway();
});
afterAll(async () => {
  await brandOnly?.close();
  await gw?.close();
});

const PUBLIC = [
  '/',
  '/portal.css',
  '/api/brand',
  '/api/brand/tokens?format=css',
  '/api/brand/themes/freight',
  '/static/fleet/design-tokens.css',
  '/static/fleet/assets/logo-horizontal-dark.svg',
  '/static/fleet/docs/',
  '/llms.txt',
  '/favicon.ico',
  '/docs',
  '/openapi.json',
];
const PRIVATE = [
  '/api/video/status',
  '/api/video/oauth/start',
  '/api/video/webhooks',
  '/dashboard',
  '/dashboard.js',
  '/dashboard/events/123/delete',
  '/metrics',
];

describe('GET /robots.txt', () => {
  it('is cacheable plain text, with a strong ETag, a 304 and a HEAD of the same headers', async () => {
    const res = await brandOnly.app.inject('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const etag = String(res.headers['etag']);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await brandOnly.app.inject({ url: '/robots.txt', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await brandOnly.app.inject({ method: 'HEAD', url: '/robots.txt' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    expect(head.body).toBe('');
  });

  it('lets crawlers into the public surface and keeps them out of the private one (robots-parser)', async () => {
    for (const [name, get] of [
      ['brand-only', async () => (await brandOnly.app.inject('/robots.txt')).body],
      ['gateway, over a socket', async () => (await fetch(`${gw.base}/robots.txt`)).text()],
    ] as const) {
      const robots = robotsParser(`${gw.base}/robots.txt`, await get());
      for (const bot of ['Googlebot', 'GPTBot', 'some-crawler/1.0']) {
        for (const p of PUBLIC)
          expect(robots.isAllowed(`${gw.base}${p}`, bot), `${name} ${bot} ${p}`).toBe(true);
        for (const p of PRIVATE)
          expect(robots.isDisallowed(`${gw.base}${p}`, bot), `${name} ${bot} ${p}`).toBe(true);
      }
    }
  });

  it('is documented as text/plain in each app’s document', async () => {
    for (const body of [
      (await brandOnly.app.inject('/openapi.json')).body,
      (await gw.api('GET', '/openapi.json', { key: null })).text,
    ]) {
      const op = (JSON.parse(body) as { paths: Record<string, any> }).paths['/robots.txt']?.get;
      expect(op?.security).toEqual([]);
      expect(Object.keys(op?.responses?.['200']?.content ?? {})).toEqual(['text/plain; charset=utf-8']);
    }
  });
});
