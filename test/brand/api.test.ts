import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { wcagContrast, wcagTextLevel } from '../helpers/wcag.js';

const SEED_ENDPOINTS = [
  'GET /api/brand',
  'GET /api/brand/tokens',
  'GET /api/brand/tokens.css',
  'GET /api/brand/themes',
  'GET /api/brand/themes/:key',
  'GET /api/brand/assets',
  'GET /api/brand/docs',
  'GET /api/brand/fonts',
  'GET /api/brand/llms.txt',
  'GET /llms.txt',
  'GET /static/fleet/design-tokens.css',
];
const KEYS = [
  'mog',
  'growthos',
  'contracting',
  'capital',
  'mortgage',
  'housing',
  'freight',
  'fleetworks',
  'earlylearning',
  'learning',
];
const TOOLS = [
  'get_brand_manifest',
  'get_brand_tokens',
  'list_brand_themes',
  'get_brand_theme',
  'list_brand_assets',
  'list_fleet_docs',
  'get_fonts',
];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = async (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const getJson = async <T = Record<string, unknown>>(url: string) => {
  const res = await get(url);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  return res.json<T>();
};

/**
 * A colour token's hex from a published DTCG document, following `{a.b.c}` aliases into `root`
 * (the dark overrides alias the base palette).
 */
function tokenHex(root: Record<string, any>, doc: Record<string, any>, dotted: string): string {
  const token = dotted.split('.').reduce<any>((node, k) => node?.[k], doc);
  const v = token?.$value;
  if (typeof v === 'string' && /^\{.+\}$/.test(v)) return tokenHex(root, root, v.slice(1, -1));
  if (typeof v?.hex !== 'string') throw new Error(`no colour at ${dotted}`);
  return v.hex.toLowerCase();
}

/** Every string that looks like a URL in a value. */
function urlsIn(v: unknown): string[] {
  if (typeof v === 'string') return /^[a-z]+:\/\//i.test(v) ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(urlsIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(urlsIn);
  return [];
}

describe('GET /api/brand (manifest)', () => {
  it('carries the seed constants, absolute base and every endpoint', async () => {
    const m = await getJson<Record<string, any>>('/api/brand');
    expect(m['name']).toBe('Meridian Fleet Brand API');
    expect(m['version']).toBe('1.0.0');
    expect(m['auth']).toBe('none');
    expect(m['base']).toBe(BASE);
    expect(typeof m['description']).toBe('string');
    for (const e of SEED_ENDPOINTS) expect(Object.keys(m['endpoints'])).toContain(e);
    expect(m['mcp']).toMatchObject({ endpoint: `${BASE}/mcp`, transport: 'streamable-http', tools: TOOLS });
    expect(Object.keys(m['usage'])).toEqual(expect.arrayContaining(['curl', 'css', 'logo']));
    expect(m['usage'].css).toContain(`${BASE}/static/fleet/design-tokens.css`);
  });

  it('emits only absolute URLs built from PUBLIC_URL, and each one resolves', async () => {
    for (const path of [
      '/api/brand',
      '/api/brand/themes',
      '/api/brand/assets',
      '/api/brand/docs',
      '/api/brand/fonts',
    ]) {
      const urls = urlsIn(await getJson(path));
      expect(urls.length, path).toBeGreaterThan(0);
      for (const u of urls) {
        expect(u.startsWith(BASE), u).toBe(true);
        if (u === BASE || u.endsWith('/mcp')) continue; // the base itself, and the MCP endpoint (POST)
        const res = await get(u.slice(BASE.length));
        expect(res.statusCode, u).toBe(200);
      }
    }
  });
});

describe('GET /api/brand/tokens', () => {
  it('is a DTCG document with the required groups and dark overrides', async () => {
    const tokens = await getJson<Record<string, any>>('/api/brand/tokens');
    expect(tokens['$schema']).toBe('https://www.designtokens.org/schemas/2025.10/format.json');
    for (const g of ['colors', 'type', 'spacing', 'radius', 'shadows', 'motion', 'gradients'])
      expect(tokens).toHaveProperty(g);
    expect(tokens['colors'].brand.primary.$value).toBe('{colors.palette.navy.900}');
    expect(tokens['colors'].palette.navy['900'].$value).toMatchObject({ colorSpace: 'srgb', hex: '#0b2545' });
    expect(tokens['$extensions']['org.fleetgate.modes'].dark.colors.surface.page.$value).toBe(
      '{colors.palette.slate.950}',
    );
  });

  it('serves the same CSS at /api/brand/tokens.css and /static/fleet/design-tokens.css', async () => {
    const a = await get('/api/brand/tokens.css');
    const b = await get('/static/fleet/design-tokens.css');
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(a.body).toBe(b.body);
    expect(a.body).toContain(':root {');
    expect(a.body).toMatch(/--colors-brand-primary: var\(--colors-palette-navy-900\);/);
    expect(a.body).toMatch(/--spacing-4: 1rem;/);
    expect(a.body).toMatch(/--motion-easing-standard: cubic-bezier\(0\.2, 0, 0, 1\);/);
    expect(a.body).toContain('@media (prefers-color-scheme: dark)');
    expect(a.body).toContain('[data-theme="dark"]');
    for (const k of KEYS) expect(a.body).toContain(`[data-funnel="${k}"]`);
    expect(a.body).not.toContain('[object Object]');
  });
});

describe('GET /api/brand/themes', () => {
  it('lists official accents and exactly the 10 live funnel themes with contrast data', async () => {
    const themes = await getJson<Record<string, any>>('/api/brand/themes');
    expect(themes['keys']).toEqual(KEYS);
    expect(themes['funnels'].map((f: { key: string }) => f.key)).toEqual(KEYS);
    expect(themes['official'].length).toBeGreaterThan(0);
    for (const th of [...themes['funnels'], ...themes['official']]) {
      expect(th.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(th.color2).toMatch(/^#[0-9a-f]{6}$/);
      expect(th.tagline.length).toBeGreaterThan(0);
      expect(th.icon.length).toBeGreaterThan(0);
      expect(['#ffffff', '#0b1b2b']).toContain(th.contrast.color.text);
    }
  });

  it('the independent WCAG formula gives the known ratios', () => {
    expect(wcagContrast('#000000', '#ffffff')).toBe(21);
    expect(wcagContrast('#ffffff', '#000000')).toBe(21);
    expect(wcagContrast('#ffffff', '#ffffff')).toBe(1);
    // Hand values, as WCAG checkers report them.
    expect(wcagContrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(wcagContrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(wcagContrast('#595959', '#ffffff')).toBeCloseTo(7.0, 2);
    expect(wcagContrast('#ff0000', '#ffffff')).toBeCloseTo(4.0, 2);
    expect(wcagContrast('#0000ff', '#ffffff')).toBeCloseTo(8.59, 2);
    expect(wcagContrast('#0b2545', '#ffffff')).toBeCloseTo(15.39, 2);
    expect(wcagTextLevel(wcagContrast('#777777', '#ffffff'))).toBe('AA-large');
    expect(wcagTextLevel(wcagContrast('#767676', '#ffffff'))).toBe('AA');
  });

  it('publishes ratios as WCAG computes them, and the better of the two text colours', async () => {
    const themes = await getJson<Record<string, any>>('/api/brand/themes');
    const tokens = await getJson<Record<string, any>>('/api/brand/tokens');
    const dark = tokens['$extensions']['org.fleetgate.modes'].dark;
    // The candidates are the brand's ink and paper, as its tokens publish them.
    const ink = tokenHex(tokens, tokens, 'colors.text.default');
    const paper = tokenHex(tokens, tokens, 'colors.text.inverse');
    expect([ink, paper]).toEqual(['#0b1b2b', '#ffffff']);
    expect(themes['surfaces']).toEqual({
      light: tokenHex(tokens, tokens, 'colors.surface.page'),
      dark: tokenHex(tokens, dark, 'colors.surface.page'),
    });
    // Published ratios are rounded to two decimals.
    const published = (ratio: number, exact: number, what: string) =>
      expect(Math.abs(ratio - exact), `${what}: ${ratio} against ${exact}`).toBeLessThanOrEqual(0.005);
    for (const th of [...themes['funnels'], ...themes['official']]) {
      for (const which of ['color', 'color2'] as const) {
        const what = `${th.key} ${which} ${th[which]}`;
        const c = th.contrast[which];
        const onInk = wcagContrast(th[which], ink);
        const onPaper = wcagContrast(th[which], paper);
        const [better, worse] = onPaper > onInk ? [paper, ink] : [ink, paper];
        expect(onPaper, `${what}: a tie would leave the choice open`).not.toBe(onInk);
        expect(c.text, what).toBe(better);
        expect(wcagContrast(th[which], c.text), what).toBeGreaterThan(wcagContrast(th[which], worse));
        published(c.textRatio, wcagContrast(th[which], c.text), `${what} text`);
        expect(c.textLevel, what).toBe(wcagTextLevel(wcagContrast(th[which], c.text)));
        published(c.onLight, wcagContrast(th[which], themes['surfaces'].light), `${what} on light`);
        published(c.onDark, wcagContrast(th[which], themes['surfaces'].dark), `${what} on dark`);
      }
      expect(th.css.variables['--theme-on-color']).toBe(th.contrast.color.text);
    }
  });

  it('computes WCAG ratios correctly (navy on white is 15.39:1)', async () => {
    const mog = await getJson<Record<string, any>>('/api/brand/themes/mog');
    expect(mog['contrast'].color).toMatchObject({
      onLight: 15.39,
      text: '#ffffff',
      textRatio: 15.39,
      textLevel: 'AAA',
    });
  });

  it.each(KEYS)('GET /api/brand/themes/%s returns that theme', async (key) => {
    const th = await getJson<Record<string, any>>(`/api/brand/themes/${key}`);
    expect(th).toMatchObject({ key, kind: 'funnel' });
    expect(Object.keys(th)).toEqual(expect.arrayContaining(['color', 'color2', 'tagline', 'icon']));
  });

  it('answers an unknown key with 404 theme_not_found listing the allowed keys', async () => {
    const res = await get('/api/brand/themes/webinar');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'theme_not_found', message: expect.any(String), details: { allowed: KEYS } },
    });
  });
});

describe('GET /api/brand/assets', () => {
  it('lists logos, shield, icons and social images with what a builder needs', async () => {
    const a = await getJson<Record<string, any>>('/api/brand/assets');
    const items = a['items'] as Record<string, any>[];
    const groups = new Set(items.map((i) => i['group']));
    expect([...groups].sort()).toEqual(['icon', 'logo', 'shield', 'social']);
    for (const i of items) {
      expect(Object.keys(i)).toEqual(
        expect.arrayContaining([
          'url',
          'format',
          'width',
          'height',
          'bytes',
          'sha256',
          'variant',
          'theme',
          'group',
        ]),
      );
      expect(i['sha256']).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(items.filter((i) => i['group'] === 'logo').map((i) => i['variant'])).toEqual(
      expect.arrayContaining(['light', 'dark']),
    );
    expect(
      items.find((i) => i['url'] === `${BASE}/static/fleet/assets/logo-horizontal-light.png`),
    ).toBeDefined();
    const social = items.filter((i) => i['group'] === 'social');
    expect(social.map((s) => s['theme'])).toEqual(expect.arrayContaining(KEYS));
    for (const s of social) expect([s['width'], s['height']]).toEqual([1200, 630]);
  });
});

describe('GET /api/brand/docs', () => {
  it('lists 27 documents in at least 3 groups, each with an HTML page and a .md twin', async () => {
    const d = await getJson<Record<string, any>>('/api/brand/docs');
    expect(d['count']).toBe(27);
    expect(d['groups'].length).toBeGreaterThanOrEqual(3);
    const docs = d['groups'].flatMap((g: { docs: unknown[] }) => g.docs) as Record<string, any>[];
    expect(docs).toHaveLength(27);
    for (const doc of docs.slice(0, 5)) {
      const page = await get(doc['url'].slice(BASE.length));
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain(`<title>${doc['title'].replace(/&/g, '&amp;')}`);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      const md = await get(doc['markdownUrl'].slice(BASE.length));
      expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(md.body).toContain(`# ${doc['title']}`);
    }
  });
});

describe('GET /api/brand/fonts', () => {
  it('gives stacks with fallbacks and a working @font-face import', async () => {
    const f = await getJson<Record<string, any>>('/api/brand/fonts');
    expect(f['importUrl']).toBe(`${BASE}/static/fleet/fonts/fonts.css`);
    expect(Object.keys(f['stacks'])).toEqual(expect.arrayContaining(['sans', 'mono']));
    expect(f['stacks'].sans.stack).toMatch(/^Inter, system-ui/);
    const css = await get('/static/fleet/fonts/fonts.css');
    expect(css.body).toContain("font-family: 'Inter'");
    const first = /url\('\.\/([^']+)'\)/.exec(css.body)?.[1];
    const font = await get(`/static/fleet/fonts/${first}`);
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
  });
});

describe('llms.txt', () => {
  it('is the same bytes on both paths and follows the llms.txt format', async () => {
    const a = await get('/llms.txt');
    const b = await get('/api/brand/llms.txt');
    expect(a.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    const lines = a.body.split('\n');
    expect(lines[0]).toBe('# Meridian Fleet Brand API');
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    // The summary line is the brand's description from brand.json.
    expect(lines.filter((l) => l.startsWith('> '))).toEqual([
      expect.stringMatching(/^> The brand kit of Meridian Fleet, .{40,}\.$/),
    ]);
    let inSection = false;
    for (const l of lines) {
      if (l.startsWith('## ')) inSection = true;
      else if (inSection && l.trim() !== '')
        expect(l, l).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/);
    }
    expect(a.body).toContain(`${BASE}/mcp`);
    expect(a.body).toContain('## Brand foundations');
  });
});

describe('errors and methods', () => {
  it('answers unknown paths with 404 in the one error shape', async () => {
    const res = await get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect((await get('/static/fleet/assets/nope.png')).statusCode).toBe(404);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    for (const url of [
      '/api/brand',
      '/api/brand/themes/mog',
      '/static/fleet/design-tokens.css',
      '/llms.txt',
      '/llms.txt?with=query',
    ]) {
      const res = await t.app.inject({ method: 'DELETE', url });
      expect(res.statusCode, url).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(res.json().error.code).toBe('method_not_allowed');
    }
    // Paths are matched as the router matches them: no trailing-slash twin, no case folding.
    for (const url of ['/llms.txt/', '/LLMS.txt', '/api/brand/themes/mog/x']) {
      const res = await t.app.inject({ method: 'DELETE', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('answers CORS preflight', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/brand/tokens',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toContain('If-None-Match');
  });
});
