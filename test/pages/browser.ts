/**
 * Headless Chromium (Debian's /usr/bin/chromium) through playwright-core, with the flags this
 * machine needs and a fresh profile. Without Chromium the browser suites skip with one line,
 * except in CI (CI=true), where .ci/run installs it and its absence is a failure.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  const ok = existsSync(CHROMIUM);
  if (!ok) {
    if (process.env['CI'] === 'true')
      throw new Error(`Chromium is required in CI but ${CHROMIUM} is missing`);
    console.warn(`browser tests skipped: no Chromium at ${CHROMIUM}`);
  }
  return ok;
}

/** Playwright gives each launch a fresh temporary profile of its own. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Where screenshots go (kept as test artifacts). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../data/test-artifacts');
