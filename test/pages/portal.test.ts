/**
 * The brand portal at / in-process: content from the catalog, headers (CSP, caching), ETag and
 * HEAD, that every URL the page references resolves, that it and the document pages pass
 * html-validate, escaping, and following a brand reload.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_KEYS } from '../../src/brand/schema.js';
import { FORMAT_FILES, TOKEN_FORMATS } from '../../src/brand/token-formats.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { htmlProblems } from '../helpers/validate-html.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await copyBrand();
  t = await buildTestApp({ brandDir: dir });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const page = () => t.app.inject('/');
/** Every href/src in the page, absolute or root-relative (anchors and the page itself excluded). */
const referencedUrls = (html: string) =>
  [
    ...new Set(
      [...html.matchAll(/\s(?:href|src|content)="([^"]+)"/g)]
        .map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))
        .filter((u) => u.startsWith(BASE) || (u.startsWith('/') && u !== '/')),
    ),
  ].map((u) => (u.startsWith(BASE) ? u.slice(BASE.length) : u));

describe('GET /', () => {
  it('is an HTML page with a strict CSP and no inline script or style', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src 'self' ${BASE}`);
    expect(csp).toContain(`img-src 'self' ${BASE}`);
    expect(csp).toContain(`font-src 'self' ${BASE}`);
    expect(csp).toContain(`connect-src 'self' ${BASE}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toContain('no-cache');
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(res.body).not.toMatch(/\sstyle="/);
    expect(res.body).not.toMatch(/<style[\s>]/);
    expect(res.body).not.toMatch(/\son[a-z]+="/);
  });

  it('shows the brand from the catalog the API serves', async () => {
    const [html, manifest, themes, assets, docs, fonts] = await Promise.all([
      page().then((r) => r.body),
      t.app.inject('/api/brand').then((r) => r.json()),
      t.app.inject('/api/brand/themes').then((r) => r.json()),
      t.app.inject('/api/brand/assets').then((r) => r.json()),
      t.app.inject('/api/brand/docs').then((r) => r.json()),
      t.app.inject('/api/brand/fonts').then((r) => r.json()),
    ]);
    expect(html).toContain(`<h1 id="top-h">${manifest.brand.name}</h1>`);
    expect(html).toContain(`${BASE}/static/fleet/fonts/fonts.css`);
    expect(html).toContain(`${BASE}/static/fleet/design-tokens.css`);
    // Every funnel theme and fleet accent, with its colors, text color and published contrast.
    expect(themes.funnels.map((f: any) => f.key)).toEqual([...THEME_KEYS]);
    for (const key of THEME_KEYS) expect(html).toContain(`data-funnel="${key}"`);
    for (const th of [...themes.funnels, ...themes.official]) {
      expect(html).toContain(th.color);
      expect(html).toContain(th.color2);
      expect(html).toContain(th.contrast.color.textRatio.toFixed(2));
      expect(html).toContain(th.contrast.color2.textRatio.toFixed(2));
      expect(html).toContain(th.socialImage);
    }
    for (const o of themes.official) expect(html).toContain(`data-fleet="${o.key}"`);
    // Palette and semantic swatches with hex values.
    for (const hex of ['#eef3fa', '#0b2545', '#e0a526', '#e6eaf2']) expect(html).toContain(hex);
    expect(html).toContain('var(--colors-brand-primary)');
    // Every image with its download, every document with its Markdown twin.
    for (const a of assets.items) expect(html).toContain(a.url);
    for (const g of docs.groups) {
      expect(html).toContain(g.title);
      for (const d of g.docs) {
        expect(html).toContain(d.url);
        expect(html).toContain(d.markdownUrl);
      }
    }
    for (const s of Object.values<any>(fonts.stacks)) expect(html).toContain(s.family);
    // Usage snippets use absolute URLs.
    expect(html).toContain(`curl -s ${BASE}/api/brand`);
    expect(html).toContain(`${BASE}/mcp`);
    expect(html).toContain('prefers-reduced-motion');
    for (const id of [
      'colors',
      'type',
      'space',
      'motion',
      'gradients',
      'themes',
      'logos',
      'social',
      'docs',
      'use',
    ])
      expect(html).toContain(`<section id="${id}"`);
  });

  it('shows every token format in "Use it" with its URL in a copyable snippet', async () => {
    const html = (await page()).body;
    const use = html.slice(html.indexOf('<section id="use"'));
    for (const f of TOKEN_FORMATS) {
      const url = `${BASE}/api/brand/tokens?format=${f}`;
      // The URL is the snippet's text (no script needed to read it); portal.js adds the button.
      expect(use, f).toMatch(
        new RegExp(
          `<figure class="snippet" id="s-format-${f}" data-copy><figcaption>[^<]+</figcaption><pre><code>${url.replace(/[?.]/g, '\\$&')}</code></pre></figure>`,
        ),
      );
      expect(use, f).toContain(FORMAT_FILES[f].file);
      const res = await t.app.inject(url.slice(BASE.length));
      expect(res.statusCode, f).toBe(200);
    }
    expect(use).toContain(`tokens?format=tailwind&amp;theme=${THEME_KEYS[0]}`);
  });

  it('paints tokens and themes from /portal.css with the token variables', async () => {
    const html = (await page()).body;
    const cssUrl = /href="(\/portal\.css\?v=[0-9a-f]+)"/.exec(html)?.[1];
    expect(cssUrl).toBeDefined();
    const css = await t.app.inject(cssUrl ?? '');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('var(--colors-palette-navy-50, #eef3fa)');
    expect(css.body).toContain('var(--gradients-meridian, linear-gradient(');
    expect(css.body).toContain('[data-fleet="grow"]{--theme-color:#7c3aed');
    expect(css.body).toContain('prefers-reduced-motion:reduce');
    // Every class the page uses for a token has its rule.
    for (const [, cls] of html.matchAll(/class="[^"]*\b(k\d+)\b/g)) expect(css.body).toContain(`.${cls}`);
    const js = await t.app.inject('/portal.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('passes html-validate, headings in order included, as do the document pages and /docs', async () => {
    const docs = (await t.app.inject('/api/brand/docs')).json();
    const urls = [
      '/',
      '/static/fleet/docs/',
      '/docs',
      ...docs.groups.flatMap((g: any) => g.docs.map((d: any) => new URL(d.url).pathname)),
    ];
    expect(urls.length).toBeGreaterThan(4);
    const problems: string[] = [];
    for (const u of urls) {
      const res = await t.app.inject(u);
      expect(res.statusCode).toBe(200);
      problems.push(...(await htmlProblems(res.body)).map((p) => `${u}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('every URL the page references resolves', async () => {
    const urls = referencedUrls((await page()).body);
    expect(urls.length).toBeGreaterThan(80);
    const bad: string[] = [];
    for (const u of urls) {
      const res = await t.app.inject(u);
      if (res.statusCode !== 200) bad.push(`${res.statusCode} ${u}`);
    }
    expect(bad).toEqual([]);
  });

  it('answers If-None-Match with 304, HEAD with the same headers, br when asked', async () => {
    const first = await page();
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await t.app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.headers['etag']).toBe(etag);
    expect(head.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    const br = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    const post = await t.app.inject({ method: 'POST', url: '/' });
    expect(post.statusCode).toBe(405);
    expect(post.headers['allow']).toContain('GET');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.paths['/'].get.summary).toContain('brand portal');
  });

  it('escapes brand text and follows a brand reload on the next request', async () => {
    const before = await page();
    const hostile = `Loads "on time" <script>alert('x')</script> & more`;
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.tagline = hostile;
    });
    const reloaded = await t.brand.reload();
    expect(reloaded.ok).toBe(true);
    const after = await page();
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    expect(after.body).not.toContain(hostile);
    expect(after.body).not.toContain("<script>alert('x')</script>");
    expect(after.body).toContain(
      'Loads &quot;on time&quot; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more',
    );
    // The stylesheet is rebuilt for the new catalog too, under a new version.
    const v = (html: string) => /portal\.css\?v=([0-9a-f]+)/.exec(html)?.[1];
    expect(v(after.body)).not.toBe(v(before.body));
  });
});
