/**
 * Vitest global setup: builds dist/ once, before any test file runs (in the main process, so
 * the parallel workers never build it twice), because the process tests run what `npm start`
 * and `npm run fleetgate` run: the bundle, not the TypeScript sources. Says how long it took.
 */
import { buildDist } from '../scripts/build.js';

export default async function setup(): Promise<void> {
  const started = performance.now();
  await buildDist();
  process.stdout.write(
    `dist/ built for the process tests in ${Math.round(performance.now() - started)} ms\n`,
  );
}
