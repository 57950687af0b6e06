/**
 * The /docs reference page of a full gateway (every route documented) in Chromium, at a desktop
 * (1280 px) and a phone (390 px) width, in light and dark mode: nothing in an operation's card
 * (its parameter table above all, whose schemas can be long) reaches past the card, the page
 * never scrolls sideways, axe finds nothing serious or critical (colour contrast included), and
 * no console error or CSP violation; html-validate holds the same page. Screenshots of each.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { htmlProblems } from '../helpers/validate-html.js';
import { ARTIFACTS, chromiumAvailable, launch } from './browser.js';

const require = createRequire(import.meta.url);

// The evaluate callbacks run in the page; the project compiles without the DOM lib.
declare const document: any;
declare const window: any;

const WIDTHS = [1280, 390] as const;
const SCHEMES = ['light', 'dark'] as const;

describe.skipIf(!chromiumAvailable())('the /docs reference page in Chromium', () => {
  let e: GatewayEnv;
  let browser: Browser;
  let axeSource: string;
  beforeAll(async () => {
    [e, browser, axeSource] = await Promise.all([
      startGateway(),
      launch(),
      readFile(require.resolve('axe-core/axe.min.js'), 'utf8'),
    ]);
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it('passes html-validate', async () => {
    const res = await fetch(`${e.base}/docs`);
    expect(await htmlProblems(await res.text())).toEqual([]);
  });

  for (const width of WIDTHS)
    for (const scheme of SCHEMES)
      it(`keeps every card's content inside it and the page from scrolling sideways at ${width} px, ${scheme}`, async () => {
        const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (err) => errors.push(err.message));
        const res = await page.goto(`${e.base}/docs`, { waitUntil: 'load' });
        expect(res?.status()).toBe(200);
        await page.evaluate(() => document.fonts.ready);
        // Bodies open too: their schemas are in the cards as well.
        await page.locator('details').evaluateAll((els) => els.forEach((d) => d.setAttribute('open', '')));
        const found = await page.evaluate(() => {
          const cards = Array.from<any>(document.querySelectorAll('.op'));
          const tables = cards.flatMap((c) => Array.from<any>(c.querySelectorAll('table')));
          const overflowing: string[] = [];
          for (const card of cards) {
            const name = card.querySelector('h3').textContent.trim();
            // Text running out of its box (an unbreakable word) widens the card's scroll area.
            if (card.scrollWidth > card.clientWidth) {
              overflowing.push(`${name}: its content is ${card.scrollWidth - card.clientWidth} px wider`);
              continue;
            }
            const box = card.getBoundingClientRect();
            const right = box.right - parseFloat(window.getComputedStyle(card).borderRightWidth);
            const out = Array.from<any>(card.querySelectorAll('*')).find(
              (el) => el.getBoundingClientRect().right > right + 0.5,
            );
            if (out) overflowing.push(`${name}: <${out.tagName.toLowerCase()}> reaches past it`);
          }
          const root = document.documentElement;
          return {
            cards: cards.length,
            tables: tables.length,
            overflowing,
            page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth },
          };
        });
        expect(found.cards).toBeGreaterThan(80);
        expect(found.tables).toBeGreaterThan(40);
        expect(found.overflowing, `${found.overflowing.length} of ${found.cards} cards overflow`).toEqual([]);
        expect(found.page.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(
          found.page.clientWidth,
        );
        await page.screenshot({ path: path.join(ARTIFACTS, `docs-${width}-${scheme}.png`), fullPage: true });
        expect(errors).toEqual([]);
        await ctx.close();
      });

  for (const width of WIDTHS)
    for (const scheme of SCHEMES)
      it(`has no serious or critical axe violations at ${width} px, ${scheme}`, async () => {
        // Only the axe run bypasses the CSP, because axe is injected as a script.
        const ctx = await browser.newContext({
          bypassCSP: true,
          viewport: { width, height: 900 },
          colorScheme: scheme,
        });
        const page = await ctx.newPage();
        await page.goto(`${e.base}/docs`, { waitUntil: 'load' });
        await page.evaluate(() => document.fonts.ready);
        await page.locator('details').evaluateAll((els) => els.forEach((d) => d.setAttribute('open', '')));
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document, { resultTypes: ['violations'] });
          return result.violations
            .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
            .map((v: any) => ({
              id: v.id,
              impact: v.impact,
              count: v.nodes.length,
              nodes: v.nodes.slice(0, 3).map((n: any) => n.target),
            }));
        });
        expect({ width, scheme, violations }).toEqual({ width, scheme, violations: [] });
        await ctx.close();
      });
});
