/**
 * The dashboard in Chromium against a real gateway and emulator: sign in through the form,
 * link the account through the full OAuth redirect chain, create an event with a funnel, delete
 * it through its confirmation page, sign out; no console errors or CSP violations on the way, axe clean of serious and critical issues
 * in light and dark mode, and full-page screenshots kept as artifacts.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { ARTIFACTS, chromiumAvailable, launch } from './browser.js';
import { storedEvents } from '../helpers/stored-events.js';

const require = createRequire(import.meta.url);

describe.skipIf(!chromiumAvailable())('dashboard in a browser', () => {
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

  /** Console errors, uncaught exceptions and failed same-origin requests, as one list. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('response', (r) => {
      if (r.url().startsWith(e.base) && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    return problems;
  }

  /** axe in a context that may inject scripts (the page's CSP would refuse axe otherwise). */
  async function axe(ctx: BrowserContext, url: string, shot: string, dark = false) {
    const audit = await browser.newContext({
      bypassCSP: true,
      storageState: await ctx.storageState(),
      colorScheme: dark ? 'dark' : 'light',
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await audit.newPage();
      await page.goto(url);
      await page.locator('details').evaluateAll((els) => els.forEach((d) => d.setAttribute('open', '')));
      await page.addScriptTag({ content: axeSource });
      // A string, so this file needs no DOM typings: it runs in the page, where axe now is.
      const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>(
        'axe.run(document, { resultTypes: ["violations"] })',
      );
      await page.screenshot({ path: path.join(ARTIFACTS, `${shot}.png`), fullPage: true });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.slice(0, 3))}`);
    } finally {
      await audit.close();
    }
  }

  it('signs in, links the account through the emulator, creates and deletes an event and signs out', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watch(page);

    await page.goto(`${e.base}/dashboard`);
    expect(await axe(ctx, `${e.base}/dashboard`, 'dashboard-login')).toEqual([]);
    await page.getByLabel('API key').fill('wrong key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not the gateway API key');
    // The refused sign-in is a 401 by design; it is the one expected non-2xx answer.
    problems.splice(0);
    await page.getByLabel('API key').fill(API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operator dashboard' }).waitFor();
    expect(await page.locator('#status-h + .facts').textContent()).toContain('none linked');

    // Link account: our start → the emulator's authorize (auto-approve) → our callback → back here.
    await page.getByRole('link', { name: 'Link account' }).click();
    await page.waitForURL(`${e.base}/dashboard?linked=1`);
    expect(await page.getByRole('status').first().textContent()).toContain('The platform account is linked.');
    const link = await e.store.getLink();
    expect(link?.status).toBe('linked');
    expect(await page.locator('#status-h + .facts').textContent()).toContain(link?.email ?? '?');

    // A new event with a funnel, in UTC (the script presets the browser's own zone).
    await page.getByLabel('Topic').fill('Freight open house');
    await page.getByLabel('Start time').fill('2031-05-06T14:30');
    await page.getByLabel('Time zone').selectOption('UTC');
    await page.getByLabel('Duration (minutes)').fill('45');
    await page.locator('#ev-funnel').selectOption('freight');
    await page.getByLabel('Open registration').check();
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL(`${e.base}/dashboard`);
    expect(await page.getByRole('status').first().textContent()).toContain('Created “Freight open house”');
    const row = page.getByRole('row', { name: /Freight open house/ });
    expect(await row.locator('[data-funnel="freight"]').textContent()).toBe('Meridian Freight');
    expect(await row.textContent()).toContain('2031-05-06 14:30 UTC');
    const stored = (await storedEvents(e.store, { funnel: 'freight' })).find(
      (x) => x.topic === 'Freight open house',
    );
    // The same instant, whichever UTC form the store keeps it in.
    expect(Date.parse(stored?.startTime ?? '')).toBe(Date.parse('2031-05-06T14:30:00Z'));

    // The theme switch cycles system → light → dark on the root element.
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await toggle.click();
    await toggle.click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await toggle.click();

    expect(await axe(ctx, `${e.base}/dashboard`, 'dashboard')).toEqual([]);
    expect(await axe(ctx, `${e.base}/dashboard`, 'dashboard-dark', true)).toEqual([]);

    // Deleting asks on a page of its own first; only its form deletes.
    await row.getByRole('link', { name: 'Delete Freight open house', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Delete “Freight open house”?' }).waitFor();
    expect(await axe(ctx, page.url(), 'dashboard-delete')).toEqual([]);
    await page.getByRole('button', { name: 'Delete event' }).click();
    await page.waitForURL(`${e.base}/dashboard`);
    expect(await page.getByRole('status').first().textContent()).toContain('Deleted “Freight open house”');
    expect(await page.getByRole('row', { name: /Freight open house/ }).count()).toBe(0);
    expect(await e.store.getEvent(stored?.videoId ?? '')).toBeUndefined();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toContain('Signed out.');
    expect((await ctx.cookies()).find((c) => c.name === 'fg_session')).toBeUndefined();
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
