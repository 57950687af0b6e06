/**
 * Drawn theme icons: every theme keeps its emoji `icon` and gains iconSvg/iconPng/iconAlt, the
 * SVG parses as XML and the PNG fully decodes (both fetched over real HTTP, with ETag and 304),
 * drawn in the theme's own colours; a brand folder theme without a drawing still loads, and a
 * bad iconFile is refused like any other brand folder problem.
 */
import { createHash } from 'node:crypto';
import { rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrandInvalidError } from '../../src/brand/problems.js';
import { readBrandFolder } from '../../src/brand/read-brand-folder.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';
import { decodePng } from '../helpers/png-decode.js';

/** The seed's emoji, which the drawn icons must leave as they are. */
const EMOJI: Record<string, string> = {
  meridian: '🧭',
  grow: '📈',
  build: '🏗️',
  finance: '🏦',
  move: '🚚',
  learn: '🎓',
  mog: '🧭',
  growthos: '📈',
  contracting: '🔨',
  capital: '💼',
  mortgage: '🏡',
  housing: '🏘️',
  freight: '🚚',
  fleetworks: '🔧',
  earlylearning: '🧸',
  learning: '🎓',
};

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe('drawn theme icons, over real HTTP', () => {
  let t: TestApp;
  let origin: string;
  let themes: any[];
  const get = (absolute: string, headers: Record<string, string> = {}) => {
    expect(absolute.startsWith(`${BASE}/`), absolute).toBe(true);
    return fetch(`${origin}${new URL(absolute).pathname}`, { headers });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    origin = await listen(t);
    const body = (await (await fetch(`${origin}/api/brand/themes`)).json()) as Record<string, any>;
    themes = [...body['official'], ...body['funnels']];
  });
  afterAll(() => t.close());

  it('keeps every emoji icon and gives every theme a drawn icon with alt text', () => {
    expect(Object.fromEntries(themes.map((th) => [th.key, th.icon]))).toEqual(EMOJI);
    for (const th of themes) {
      expect(th.iconSvg).toBe(`${BASE}/static/fleet/assets/themes/${th.key}.svg`);
      expect(th.iconPng).toBe(`${BASE}/static/fleet/assets/themes/${th.key}.png`);
      expect(th.iconAlt, th.key).toMatch(/^A [a-z ]+$/);
    }
  });

  it('serves each theme the same from /api/brand/themes/:key', async () => {
    for (const th of themes.filter((x) => x.kind === 'funnel')) {
      const one = (await (await fetch(`${origin}/api/brand/themes/${th.key}`)).json()) as Record<string, any>;
      expect([one['icon'], one['iconSvg'], one['iconPng'], one['iconAlt']]).toEqual([
        th.icon,
        th.iconSvg,
        th.iconPng,
        th.iconAlt,
      ]);
    }
  });

  it('serves each SVG as a parseable 48-unit drawing without text or scripts, with ETag and 304', async () => {
    for (const th of themes) {
      const res = await get(th.iconSvg);
      expect(res.status, th.key).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const svg = await res.text();
      const problems: string[] = [];
      const doc = new DOMParser({
        onError: (level, msg) => problems.push(`${level}: ${msg}`),
      }).parseFromString(svg, 'image/svg+xml');
      expect(problems, th.key).toEqual([]);
      const root = doc.documentElement;
      expect(root?.tagName).toBe('svg');
      expect(root?.getAttribute('viewBox')).toBe('0 0 48 48');
      expect(doc.getElementsByTagName('text').length, th.key).toBe(0);
      expect(doc.getElementsByTagName('script').length, th.key).toBe(0);
      expect(svg.toLowerCase()).toContain(th.color);
      expect(svg.toLowerCase()).toContain(th.color2);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      expect((await get(th.iconSvg, { 'if-none-match': etag ?? '' })).status).toBe(304);
    }
  });

  it('serves each PNG, which decodes fully and is painted in the theme colours', async () => {
    const assets = (await (await fetch(`${origin}/api/brand/assets`)).json()) as { items: any[] };
    for (const th of themes) {
      const res = await get(th.iconPng);
      expect(res.status, th.key).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const body = Buffer.from(await res.arrayBuffer());
      const png = decodePng(body);
      expect([png.width, png.height]).toEqual([192, 192]);
      // A point on the tile, clear of every drawing, is the theme colour; color2 draws a part.
      const at = (96 * png.width + 12) * png.channels;
      expect([...png.pixels.subarray(at, at + 3)], th.key).toEqual(rgb(th.color));
      const [r, g, b] = rgb(th.color2);
      let color2 = 0;
      for (let i = 0; i < png.pixels.length; i += png.channels) {
        if (png.pixels[i] === r && png.pixels[i + 1] === g && png.pixels[i + 2] === b) color2++;
      }
      expect(color2, `${th.key} color2 pixels`).toBeGreaterThan(50);
      // Listed among the assets with its bytes and hash.
      const listed = assets.items.find((i) => i.id === `theme-icon-${th.key}` && i.format === 'png');
      expect(listed).toMatchObject({
        theme: th.key,
        width: 192,
        height: 192,
        url: th.iconPng,
        alt: th.iconAlt,
      });
      expect(listed.sha256).toBe(createHash('sha256').update(body).digest('hex'));
      const etag = res.headers.get('etag');
      expect((await get(th.iconPng, { 'if-none-match': etag ?? '' })).status).toBe(304);
    }
  });

  it('shows the drawn icon with its alt text in the portal, not the emoji', async () => {
    const html = await (await fetch(`${origin}/`)).text();
    for (const th of themes) {
      expect(html).toContain(
        `<img class="theme-icon" src="${th.iconSvg}" alt="${th.iconAlt}" width="48" height="48">`,
      );
    }
    expect(html).not.toContain('<span class="theme-icon"');
  });
});

describe('a brand folder theme without a drawn icon', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await copyBrand();
    await editJson(dir, 'themes.json', (th) => {
      delete th.funnels.freight.iconFile;
      delete th.funnels.freight.iconAlt;
    });
    await unlink(path.join(dir, 'assets/themes/freight.svg'));
    t = await buildTestApp({ brandDir: dir });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('still loads: that theme keeps its emoji and simply lacks the drawn icon fields', async () => {
    const freight = (await t.app.inject('/api/brand/themes/freight')).json();
    expect(freight.icon).toBe('🚚');
    expect(Object.keys(freight)).not.toContain('iconSvg');
    expect(Object.keys(freight)).not.toContain('iconPng');
    expect(Object.keys(freight)).not.toContain('iconAlt');
    const move = (await t.app.inject('/api/brand/themes')).json().official.find((x: any) => x.key === 'move');
    expect(move.iconSvg).toBe(`${BASE}/static/fleet/assets/themes/move.svg`);
    const items = (await t.app.inject('/api/brand/assets')).json().items as any[];
    expect(items.filter((i) => i.theme === 'freight').map((i) => i.group)).toEqual(['social']);
    expect((await t.app.inject('/static/fleet/assets/themes/freight.svg')).statusCode).toBe(404);
  });

  it('shows the emoji for that theme in the portal', async () => {
    const html = (await t.app.inject('/')).body;
    expect(html).toContain('<span class="theme-icon" aria-hidden="true">🚚</span>');
    expect(html).toContain(`<img class="theme-icon" src="${BASE}/static/fleet/assets/themes/move.svg"`);
  });
});

describe('an invalid theme icon', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('is refused with every problem listed by file, field and reason', async () => {
    const dir = await copyBrand();
    dirs.push(dir);
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.iconFile = 'themes/nowhere.svg';
      th.funnels.mog.iconFile = '../brand.json';
      delete th.official.move.iconFile;
    });
    await writeFile(
      path.join(dir, 'assets/themes/capital.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    );
    const err = await readBrandFolder(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrandInvalidError);
    const problems = (err as BrandInvalidError).problems;
    const has = (file: string, field: string, reason: RegExp) =>
      expect(
        problems.some((p) => p.file === file && p.field === field && reason.test(p.reason)),
        `${file} ${field}: ${JSON.stringify(problems)}`,
      ).toBe(true);
    has('themes.json', 'funnels.mog.iconFile', /\.svg path inside the assets folder/);
    // The schema refused the file, so the rest is checked on a copy without mog's path.
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.mog.iconFile = 'themes/mog.svg';
    });
    const rest = ((await readBrandFolder(dir).catch((e: unknown) => e)) as BrandInvalidError).problems;
    const again = (file: string, field: string, reason: RegExp) =>
      expect(
        rest.some((p) => p.file === file && p.field === field && reason.test(p.reason)),
        `${file} ${field}: ${JSON.stringify(rest)}`,
      ).toBe(true);
    again('assets/themes/nowhere.svg', '(file)', /missing/);
    again('themes.json', 'official.move.iconAlt', /no iconFile/);
    again('assets/themes/capital.svg', '(file)', /refused attribute onload on <svg>: event handlers/);
  });
});
