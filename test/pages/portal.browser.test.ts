/**
 * The brand portal in headless Chromium over real HTTP: every theme renders with its colors,
 * swatches are painted and images load, no console errors (CSP included), axe finds nothing
 * serious or critical, in light and dark mode, with full-page screenshots of both.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_KEYS } from '../../src/brand/schema.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { freePort } from '../helpers/spawn-service.js';
import { ARTIFACTS, chromiumAvailable, launch } from './browser.js';

const require = createRequire(import.meta.url);

// The evaluate callbacks run in the page; the project compiles without the DOM lib, so these
// module-local declarations describe the little of it they touch.
declare const document: any;
declare const window: any;
declare function getComputedStyle(el: unknown): any;
declare function requestAnimationFrame(cb: (t: number) => void): number;

describe.skipIf(!chromiumAvailable())('brand portal in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    // Brand URLs are absolute, so PUBLIC_URL must be the address the browser really uses.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ env: { PUBLIC_URL: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launch();
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens the portal with console errors collected; every lazy image is scrolled into view. */
  async function open(
    ctx: BrowserContext,
    scheme: 'light' | 'dark',
  ): Promise<{ page: Page; errors: string[] }> {
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.emulateMedia({ colorScheme: scheme });
    const res = await page.goto(`${base}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.evaluate(async () => {
      for (const img of Array.from<any>(document.images)) {
        img.scrollIntoView();
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    // Lazy images start once seen; scrolling back before they do would leave them unloaded.
    await page.waitForFunction(() => Array.from<any>(document.images).every((i) => i.complete), null, {
      timeout: 10_000,
    });
    await page.evaluate(async () => {
      window.scrollTo(0, 0);
      await document.fonts.ready;
    });
    return { page, errors };
  }

  const bg = (page: Page, selector: string) =>
    page.$eval(selector, (el) => getComputedStyle(el).backgroundColor);
  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

  it('renders every theme, swatch, font and image in light mode', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await open(ctx, 'light');
    const catalog = t.brand.current;

    const broken = await page.$$eval('img', (imgs) =>
      imgs.filter((i) => i.naturalWidth === 0).map((i) => i.currentSrc || i.src),
    );
    expect(broken).toEqual([]);
    expect(await page.$$eval('img', (imgs) => imgs.length)).toBeGreaterThan(20);
    expect(await page.$$eval('#social img', (imgs) => imgs.length)).toBe(
      catalog.assets.items.filter((i) => i.group === 'social').length,
    );

    // The 10 funnel themes, each painted by the tokens stylesheet's [data-funnel] selector.
    expect(
      await page.$$eval('#funnel-themes > li', (els) => els.map((e) => e.getAttribute('data-funnel'))),
    ).toEqual([...THEME_KEYS]);
    for (const f of catalog.themes.funnels) {
      const head = `[data-funnel="${f.key}"] .theme-head`;
      expect(await bg(page, head)).toBe(rgb(f.color));
      expect(await page.$eval(head, (el) => getComputedStyle(el).color)).toBe(rgb(f.contrast.color.text));
      expect(await bg(page, `[data-funnel="${f.key}"] .sample-c2`)).toBe(rgb(f.color2));
    }
    for (const o of catalog.themes.official)
      expect(await bg(page, `[data-fleet="${o.key}"] .theme-head`)).toBe(rgb(o.color));

    // Swatches are painted (portal.css and design-tokens.css both loaded under the CSP).
    const unpainted = await page.$$eval(
      '#colors .chip',
      (chips) => chips.filter((c) => getComputedStyle(c).backgroundColor === 'rgba(0, 0, 0, 0)').length,
    );
    expect(unpainted).toBe(0);
    expect(await bg(page, 'body')).toBe(rgb(catalog.themes.surfaces.light));
    const gradient = await page.$eval('#gradients .grad', (el) => getComputedStyle(el).backgroundImage);
    expect(gradient).toContain('linear-gradient');

    // The brand fonts came from our origin.
    const fonts = await page.evaluate(() => ({
      inter: document.fonts.check('16px Inter'),
      display: document.fonts.check('700 16px Fraunces'),
      loaded: Array.from<any>(document.fonts).filter((f) => f.status === 'loaded').length,
    }));
    expect(fonts.inter && fonts.display).toBe(true);
    expect(fonts.loaded).toBeGreaterThan(0);

    // Progressive JS: the theme toggle switches data-theme, copy buttons exist.
    expect(await page.$$eval('.snippet .copy', (b) => b.length)).toBeGreaterThan(5);
    await page.click('#theme-slot button');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await page.click('#theme-slot button');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await bg(page, 'body')).toBe(rgb(catalog.themes.surfaces.dark));
    await page.click('#theme-slot button');
    expect(await page.getAttribute('html', 'data-theme')).toBeNull();

    // A copy button either copies or, without clipboard access, selects the snippet; both say so.
    await page.click('#s-manifest .copy');
    await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
    // Each token format's snippet gets a real, labelled button.
    const copy = await page.$eval('#s-format-scss .copy', (b: any) => ({
      tag: b.tagName,
      type: b.type,
      label: b.getAttribute('aria-label'),
    }));
    expect(copy).toEqual({ tag: 'BUTTON', type: 'button', label: 'Copy: Sass variables (tokens.scss)' });

    await page.screenshot({ path: path.join(ARTIFACTS, 'portal-light.png'), fullPage: true });
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('switches to the dark surfaces and keeps dark-variant art on a dark surface', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await open(ctx, 'dark');
    const { surfaces } = t.brand.current.themes;
    expect(await bg(page, 'body')).toBe(rgb(surfaces.dark));
    const darkPreviews = await page.$$eval('.preview.on-dark', (els) =>
      els.map((e) => getComputedStyle(e).backgroundColor),
    );
    expect(darkPreviews.length).toBeGreaterThan(0);
    for (const c of darkPreviews) expect(c).toBe(rgb(surfaces.dark));
    const lightPreviews = await page.$$eval('.preview.on-light', (els) =>
      els.map((e) => getComputedStyle(e).backgroundColor),
    );
    for (const c of lightPreviews) expect(c).toBe(rgb(surfaces.light));
    await page.screenshot({ path: path.join(ARTIFACTS, 'portal-dark.png'), fullPage: true });
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('lets a script on the page fetch /robots.txt: the CSP allows same-origin fetches', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${base}/`);
    const got = await page.evaluate(async () => {
      try {
        const res = await fetch('/robots.txt');
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
      } catch (err) {
        return { error: String(err) };
      }
    });
    expect(got).toMatchObject({ status: 200, type: 'text/plain; charset=utf-8' });
    expect((got as { text?: string }).text).toContain('User-agent: *');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('honours prefers-reduced-motion, and the keyboard reaches the skip link first', async () => {
    const ctx = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    await page.goto(`${base}/`);
    const durations = await page.$$eval('.motion-list .dot, .theme', (els) =>
      els.map((e) => String(getComputedStyle(e).transitionDuration)),
    );
    expect(durations.length).toBeGreaterThan(10);
    for (const d of durations) expect(d.split(',').every((x) => x.trim() === '0s')).toBe(true);
    // Keyboard: the first Tab reaches the skip link, which moves focus into main.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.className)).toBe('skip');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement.id)).toBe('main');
    await ctx.close();
  });

  it('has no serious or critical axe violations in light or dark mode', async () => {
    // Only the axe run bypasses the CSP, because axe is injected as a script.
    const axe = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await open(ctx, scheme);
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations
          .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
          .map((v: any) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n: any) => n.target),
          }));
      });
      expect({ scheme, violations }).toEqual({ scheme, violations: [] });
      await page.close();
    }
    await ctx.close();
  });
});
