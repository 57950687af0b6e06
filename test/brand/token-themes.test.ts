/**
 * GET /api/brand/tokens?theme=<key> over a real socket: a funnel's output differs from the base
 * exactly in the two accent tokens (json, css, scss), every format carries its ETag, 304 and
 * compression, the themed Sass, Tailwind, ES module and Android XML are accepted by their
 * consumers, and an unknown theme is a 400 naming the allowed keys.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { compile } from '@tailwindcss/node';
import { DOMParser } from '@xmldom/xmldom';
import * as sass from 'sass';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenTokens } from '../../src/brand/dtcg.js';
import { THEME_KEYS } from '../../src/brand/schema.js';
import { THEME_TOKEN_PATHS } from '../../src/brand/theme-tokens.js';
import { FORMAT_FILES, TOKEN_FORMATS } from '../../src/brand/token-formats.js';
import { buildTestApp, REPO, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let port: number;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-token-themes-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
function raw(p: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: p, headers }, (res) => {
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

const THEME = 'growthos';
const text = async (format: string, theme?: string) => {
  const res = await raw(`/api/brand/tokens?format=${format}${theme ? `&theme=${theme}` : ''}`);
  expect(res.status, `${format} ${theme ?? ''}`).toBe(200);
  return res.body.toString('utf8');
};
const funnel = async (key: string) =>
  JSON.parse((await raw(`/api/brand/themes/${key}`)).body.toString('utf8')) as {
    color: string;
    color2: string;
    name: string;
  };

/** Lines of `a` not in `b`, comment lines aside and each without its trailing comment. */
const onlyIn = (a: string, b: string) => {
  const other = new Set(b.split('\n'));
  return a
    .split('\n')
    .filter((l) => !other.has(l) && !/^\s*(\/\*|\/\/)/.test(l))
    .map((l) => l.replace(/\s*(\/\*.*\*\/|\/\/.*)$/, ''));
};

describe('GET /api/brand/tokens?theme=', () => {
  it('changes exactly the accent tokens of the DTCG document, in light and dark', async () => {
    const th = await funnel(THEME);
    const base = JSON.parse(await text('json')) as Record<string, unknown>;
    const themed = JSON.parse(await text('json', THEME)) as Record<string, unknown>;
    const flatBase = flattenTokens(base, 'tokens', []);
    const flatThemed = flattenTokens(themed, 'tokens', []);
    expect([...flatThemed.keys()]).toEqual([...flatBase.keys()]);
    const changed = [...flatBase.keys()].filter(
      (k) => JSON.stringify(flatBase.get(k)?.value) !== JSON.stringify(flatThemed.get(k)?.value),
    );
    expect(changed.sort()).toEqual(Object.values(THEME_TOKEN_PATHS).sort());
    const hex = (p: string) => (flatThemed.get(p)?.value as { hex: string }).hex;
    expect(hex(THEME_TOKEN_PATHS.color)).toBe(th.color);
    expect(hex(THEME_TOKEN_PATHS.color2)).toBe(th.color2);
    // The dark overrides lose the two tokens (the theme's colours hold in both modes), nothing else.
    type Ext = { 'org.fleetgate.modes': { dark: unknown }; 'org.fleetgate.theme': Record<string, unknown> };
    const darkOf = (doc: Record<string, unknown>) =>
      flattenTokens((doc['$extensions'] as Ext)['org.fleetgate.modes'].dark, 'dark', []);
    const darkBase = darkOf(base);
    const darkThemed = darkOf(themed);
    expect([...darkBase.keys()].filter((k) => !darkThemed.has(k)).sort()).toEqual(
      Object.values(THEME_TOKEN_PATHS).sort(),
    );
    for (const [k, v] of darkThemed) expect(v.value, k).toEqual(darkBase.get(k)?.value);
    expect((themed['$extensions'] as Ext)['org.fleetgate.theme']).toMatchObject({
      key: THEME,
      name: th.name,
    });
  });

  it('changes exactly the accent declarations of the CSS and the Sass', async () => {
    const th = await funnel(THEME);
    const css = await text('css', THEME);
    const baseCss = await text('css');
    // The light values change; the dark overrides of the two go.
    expect(onlyIn(css, baseCss)).toEqual([
      `  --colors-brand-primary: ${th.color};`,
      `  --colors-brand-accent: ${th.color2};`,
    ]);
    expect(onlyIn(baseCss, css).map((l) => l.trim().split(':')[0])).toEqual([
      '--colors-brand-primary',
      '--colors-brand-accent',
      '--colors-brand-primary',
      '--colors-brand-accent',
      '--colors-brand-primary',
      '--colors-brand-accent',
    ]);
    const scss = await text('scss', THEME);
    const baseScss = await text('scss');
    expect(onlyIn(scss, baseScss)).toEqual([
      `$colors-brand-primary: ${th.color};`,
      `$colors-brand-accent: ${th.color2};`,
    ]);
    // The base's light values, and its dark ones (the $tokens-dark map) which a theme does not have.
    expect(onlyIn(baseScss, scss).map((l) => l.trim().split(':')[0])).toEqual([
      '$colors-brand-primary',
      '$colors-brand-accent',
      '"colors-brand-primary"',
      '"colors-brand-accent"',
    ]);
  });

  it('serves every format of every theme with its media type, ETag, 304 and gzip', async () => {
    const baseSwift = await text('swift');
    for (const key of THEME_KEYS) {
      const th = await funnel(key);
      for (const f of TOKEN_FORMATS) {
        const url = `/api/brand/tokens?format=${f}&theme=${key}`;
        const res = await raw(url);
        const where = `${f} ${key}`;
        expect(res.status, where).toBe(200);
        expect(res.headers['content-type'], where).toBe(
          f === 'json' ? 'application/json; charset=utf-8' : FORMAT_FILES[f].contentType,
        );
        const body = res.body.toString('utf8');
        expect(body, where).not.toContain('[object Object]');
        // Swift writes colours as components; the rest as hex.
        if (f === 'swift') expect(body, where).not.toBe(baseSwift);
        else
          expect(body.toLowerCase(), where).toContain(
            f === 'compose' || f === 'android' ? th.color.slice(1) : th.color,
          );
        const etag = String(res.headers['etag']);
        expect(etag, where).toMatch(/^"[0-9a-f]{32}"$/);
        expect((await raw(url, { 'if-none-match': etag })).status, where).toBe(304);
        const gz = await raw(url, { 'accept-encoding': 'gzip' });
        expect(gz.headers['content-encoding'], where).toBe('gzip');
        expect(gunzipSync(gz.body).equals(res.body), where).toBe(true);
      }
    }
    // HEAD answers with the GET's headers and no body.
    const url = `/api/brand/tokens?format=scss&theme=${THEME}`;
    const get = await t.app.inject({ url });
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['etag']).toBe(get.headers['etag']);
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);
    // The theme alone means json; the order of the parameters does not matter.
    const plain = await raw(`/api/brand/tokens?theme=${THEME}`);
    const json = await raw(`/api/brand/tokens?theme=${THEME}&format=json`);
    expect(plain.headers['etag']).toBe(json.headers['etag']);
    expect(plain.body.equals(json.body)).toBe(true);
  });

  it('answers concurrent first requests of a theme with one build', async () => {
    const all = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        raw(`/api/brand/tokens?format=${TOKEN_FORMATS[i % 3]}&theme=learning`),
      ),
    );
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(all[0]?.headers['etag']).toBe(all[3]?.headers['etag']);
  });

  it('answers an unknown, repeated or empty theme with a 400 listing the allowed keys', async () => {
    for (const q of [
      'theme=webinar',
      'theme=MOG',
      'theme=mog&theme=capital',
      'theme=',
      'format=css&theme=x',
    ]) {
      const res = await raw(`/api/brand/tokens?${q}`);
      expect(res.status, q).toBe(400);
      const body = JSON.parse(res.body.toString('utf8')) as {
        error: { code: string; message: string; details: { allowed: string[] } };
      };
      expect(body.error.code, q).toBe('unknown_theme');
      expect(body.error.details.allowed, q).toEqual([...THEME_KEYS]);
    }
    const both = await raw('/api/brand/tokens?format=yaml&theme=mog');
    expect(both.status).toBe(400);
    expect((JSON.parse(both.body.toString('utf8')) as { error: { code: string } }).error.code).toBe(
      'unknown_format',
    );
  });

  it('documents the theme parameter in the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    const doc = res.json<{
      paths: Record<
        string,
        { get: { parameters?: { name: string; required?: boolean; schema: { enum?: string[] } }[] } }
      >;
    }>();
    const param = doc.paths['/api/brand/tokens']?.get.parameters?.find((p) => p.name === 'theme');
    expect(param?.schema.enum).toEqual([...THEME_KEYS]);
    expect(param?.required ?? false).toBe(false);
  });
});

describe('themed formats in their consumers', () => {
  it('Sass compiles the themed scss with the theme colours', async () => {
    const th = await funnel('freight');
    const page = `${await text('scss', 'freight')}\n.cta { color: $colors-brand-primary; border-color: $colors-brand-accent; }`;
    const css = sass.compileString(page).css;
    expect(css).toContain(`color: ${th.color};`);
    expect(css).toContain(`border-color: ${th.color2};`);
  });

  it('Tailwind v4 compiles a page importing the themed theme, its utilities in the theme colours', async () => {
    const th = await funnel('freight');
    const file = path.join(dir, 'freight.tailwind.css');
    await writeFile(file, await text('tailwind', 'freight'));
    const compiler = await compile(`@import "tailwindcss";\n@import ${JSON.stringify(file)};\n`, {
      base: REPO,
      onDependency: () => {},
    });
    const css = compiler.build(['bg-brand-primary', 'text-brand-accent', 'p-4']);
    expect(css).toContain('background-color: var(--color-brand-primary)');
    expect(css).toContain(`--color-brand-primary: ${th.color};`);
    expect(css).toContain(`--color-brand-accent: ${th.color2};`);
    // The theme holds in dark mode: no dark override of the two.
    const dark = /\[data-theme="dark"\] \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(dark).not.toContain('--color-brand-primary');
    expect(dark).toContain('--color-surface-page');
  });

  it('the themed ES module imports with the theme colours', async () => {
    const th = await funnel('capital');
    const file = path.join(dir, 'capital.mjs');
    await writeFile(file, await text('js', 'capital'));
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    expect(mod['colorsBrandPrimary']).toBe(th.color);
    expect(mod['colorsBrandAccent']).toBe(th.color2);
  });

  it('the themed Android resources are well-formed XML with the theme colours', async () => {
    const th = await funnel('capital');
    const problems: string[] = [];
    const doc = new DOMParser({ onError: (level, msg) => problems.push(`${level}: ${msg}`) }).parseFromString(
      await text('android', 'capital'),
      'text/xml',
    );
    expect(problems).toEqual([]);
    const colors = doc.getElementsByTagName('color');
    const byName = new Map<string, string>();
    for (let i = 0; i < colors.length; i++) {
      const el = colors.item(i);
      if (el) byName.set(el.getAttribute('name') ?? '', el.textContent ?? '');
    }
    expect(byName.get('colors_brand_primary')).toBe(`#ff${th.color.slice(1)}`);
    expect(byName.get('colors_brand_accent')).toBe(`#ff${th.color2.slice(1)}`);
  });
});
