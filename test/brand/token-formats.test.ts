/**
 * GET /api/brand/tokens?format=<f>: every format over a real socket (the edge, src/http/edge.ts) and through
 * Fastify, with its media type, static twin, ETag/304 and compression; an unknown format is a
 * 400 naming the allowed ones; and the Sass output compiled by Sass itself.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import * as sass from 'sass';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_FILES, TOKEN_FORMATS } from '../../src/brand/token-formats.js';
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
function raw(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const text = async (format: string) =>
  (await raw(`/api/brand/tokens?format=${format}`)).body.toString('utf8');

describe('GET /api/brand/tokens?format=', () => {
  it('serves every format with its media type, ETag, 304, gzip and a static twin of the same bytes', async () => {
    for (const f of TOKEN_FORMATS) {
      const url = `/api/brand/tokens?format=${f}`;
      const res = await raw(url);
      expect(res.status, f).toBe(200);
      expect(res.headers['content-type'], f).toBe(
        f === 'json' ? 'application/json; charset=utf-8' : FORMAT_FILES[f].contentType,
      );
      expect(res.body.toString('utf8'), f).not.toContain('[object Object]');
      expect(res.body.toString('utf8'), f).not.toContain('undefined');
      const etag = String(res.headers['etag']);
      expect(etag, f).toMatch(/^"[0-9a-f]{32}"$/);
      const again = await raw(url, { 'if-none-match': etag });
      expect(again.status, f).toBe(304);
      expect(again.body.length, f).toBe(0);
      const gz = await raw(url, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], f).toBe('gzip');
      expect(gunzipSync(gz.body).equals(res.body), f).toBe(true);
      const twin = await raw(`/static/fleet/tokens/${FORMAT_FILES[f].file}`);
      expect(twin.status, f).toBe(200);
      expect(twin.headers['content-type'], f).toBe(FORMAT_FILES[f].contentType);
      expect(twin.body.equals(res.body), f).toBe(true);
      // Fastify's route (app.inject, any other query) answers with the same representation.
      const injected = await t.app.inject({ url: `${url}&x=1` });
      expect(injected.statusCode, f).toBe(200);
      expect(injected.headers['etag'], f).toBe(etag);
      expect(injected.rawPayload.equals(res.body), f).toBe(true);
    }
  });

  it('keeps json the default and css the same bytes as tokens.css', async () => {
    const plain = await raw('/api/brand/tokens');
    const json = await raw('/api/brand/tokens?format=json');
    expect(json.body.equals(plain.body)).toBe(true);
    expect(json.headers['etag']).toBe(plain.headers['etag']);
    const css = await raw('/api/brand/tokens?format=css');
    const tokensCss = await raw('/api/brand/tokens.css');
    expect(css.body.equals(tokensCss.body)).toBe(true);
    expect(css.headers['etag']).toBe(tokensCss.headers['etag']);
  });

  it('answers an unknown or repeated format with a 400 listing the allowed ones', async () => {
    for (const q of ['format=yaml', 'format=JSON', 'format=scss&format=js', 'format=']) {
      const res = await raw(`/api/brand/tokens?${q}`);
      expect(res.status, q).toBe(400);
      const body = JSON.parse(res.body.toString('utf8')) as {
        error: { code: string; message: string; details: { allowed: string[] } };
      };
      expect(body.error.code, q).toBe('unknown_format');
      expect(body.error.details.allowed).toEqual([...TOKEN_FORMATS]);
    }
  });

  it('documents the format parameter in the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    const doc = res.json<{
      paths: Record<string, { get: { parameters?: { name: string; schema: { enum?: string[] } }[] } }>;
    }>();
    const param = doc.paths['/api/brand/tokens']?.get.parameters?.find((p) => p.name === 'format');
    expect(param?.schema.enum).toEqual([...TOKEN_FORMATS]);
  });
});

describe('the scss format', () => {
  it('compiles with Sass, every value as CSS', async () => {
    const scss = await text('scss');
    const page = `${scss}
.hero { color: $colors-brand-primary; background: $gradients-dawn; font: $type-style-display;
  box-shadow: $shadows-md; transition: $motion-transition-default; padding: $spacing-4;
  border-radius: $radius-md; }`;
    const css = sass.compileString(page, { silenceDeprecations: [] }).css;
    const hero = /\.hero \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(hero).toContain('color: #0b2545;');
    expect(hero).toContain('background: linear-gradient(135deg, #0b2545 0%, #e0a526 100%);');
    // The typography shorthand keeps its size/line-height slash (Sass must not divide it).
    expect(hero).toMatch(/font: 700 3rem\/1\.15 Fraunces, Georgia/);
    expect(hero).toContain('transition: 200ms cubic-bezier(0.2, 0, 0, 1) 0ms;');
    // Sass writes the colour in its own legacy syntax: the same colour.
    expect(hero).toContain('box-shadow: 0px 2px 4px -1px rgba(11, 27, 43, 0.08), 0px 4px 12px -2px');
    expect(hero).toMatch(/padding: \d/);
    expect(hero).toContain('border-radius: 8px;');
  });

  it('keeps every sub-value of a type style, letter spacing included, and dark mode as a Sass map', async () => {
    const scss = await text('scss');
    const page = `@use 'sass:map';
${scss}
.title { font-family: $type-style-display-font-family; font-size: $type-style-display-font-size;
  font-weight: $type-style-display-font-weight; line-height: $type-style-display-line-height;
  letter-spacing: $type-style-display-letter-spacing; }
.dark { color: map.get($tokens-dark, 'colors-brand-primary'); background: map.get($tokens-dark, 'colors-surface-page'); }
.count { --n: #{length($tokens-dark)}; }`;
    const css = sass.compileString(page).css;
    const rule = (sel: string) => new RegExp(`\\.${sel} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
    expect(rule('title')).toContain('letter-spacing: -0.02rem;');
    expect(rule('title')).toContain('font-size: 3rem;');
    expect(rule('title')).toContain('line-height: 1.15;');
    expect(rule('title')).toContain('font-weight: 700;');
    expect(rule('title')).toMatch(/font-family: Fraunces, Georgia/);
    expect(rule('dark')).toContain('color: #d5e1f2;');
    expect(rule('dark')).toContain('background: #0b1220;');
    expect(rule('count')).toContain('--n: 16;');
  });

  it('declares one Sass variable for every token the stylesheet has', async () => {
    const scss = await text('scss');
    // The funnels' --theme-* variables are not tokens.
    const cssNames = [...(await text('css')).matchAll(/^ {2}--([a-z0-9-]+):/gm)]
      .map((m) => m[1] ?? '')
      .filter((n) => !n.startsWith('theme-'));
    const scssNames = new Set([...scss.matchAll(/^\$([a-z0-9-]+):/gm)].map((m) => m[1]));
    expect(scssNames.size).toBeGreaterThan(100);
    for (const n of new Set(cssNames)) expect(scssNames.has(n), n).toBe(true);
  });
});
