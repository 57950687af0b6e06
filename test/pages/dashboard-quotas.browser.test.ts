/**
 * The dashboard's rate budgets and daily quotas in Chromium with a spent quota: the user's
 * meeting-write row reads "exhausted" to assistive technology (its accessible row name and
 * state cell), and axe finds no serious or critical issue in light or dark mode. Screenshots of
 * the monitor section are kept as artifacts.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { ARTIFACTS, chromiumAvailable, launch } from './browser.js';

const require = createRequire(import.meta.url);

describe.skipIf(!chromiumAvailable())('dashboard quotas in a browser', () => {
  let e: GatewayEnv;
  let browser: Browser;
  let axeSource: string;
  beforeAll(async () => {
    [e, browser, axeSource] = await Promise.all([
      startGateway({ env: { FLEETGATE_DAILY_QUOTAS: 'meeting_writes_per_user=1' } }),
      launch(),
      readFile(require.resolve('axe-core/axe.min.js'), 'utf8'),
    ]);
    await mkdir(ARTIFACTS, { recursive: true });
    await e.link();
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it('shows a spent meeting-write quota as exhausted, axe-clean in light and dark mode', async () => {
    const created = await e.api('POST', '/api/video/events', {
      body: { topic: 'Spends the quota', start_time: '2031-04-01T17:00:00Z' },
    });
    expect(created.status, created.text).toBe(201);
    const user = (await e.store.getLink())?.userId ?? '';

    for (const dark of [false, true]) {
      // bypassCSP so axe may be injected; the page's own CSP refuses inline scripts.
      const ctx = await browser.newContext({
        bypassCSP: true,
        colorScheme: dark ? 'dark' : 'light',
        viewport: { width: 1280, height: 900 },
      });
      try {
        const page = await ctx.newPage();
        await page.goto(`${e.base}/dashboard`);
        await page.getByLabel('API key').fill(API_KEY);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 3, name: 'Meeting writes per user today' }).waitFor();
        const row = page.getByRole('row', { name: new RegExp(user) });
        expect(await row.getByRole('cell').allTextContents()).toEqual(['1', '1', '0', 'exhausted']);
        await page.addScriptTag({ content: axeSource });
        const result = await page.evaluate<{
          violations: { id: string; impact: string; nodes: unknown[] }[];
        }>('axe.run(document, { resultTypes: ["violations"] })');
        const serious = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.slice(0, 3))}`);
        expect(serious).toEqual([]);
        await page
          .locator('section[aria-labelledby="monitor-h"]')
          .screenshot({ path: path.join(ARTIFACTS, `dashboard-quotas${dark ? '-dark' : ''}.png`) });
      } finally {
        await ctx.close();
      }
    }
  });
});
