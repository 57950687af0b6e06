/**
 * Vitest sequencer: the files known to take longest start first, so on a clean clone (no timing
 * cache yet, where vitest orders files by size) none of them starts last and ends the run alone.
 * After that, vitest's own order (by the last run's durations when it has them).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as measured by `npx vitest run --reporter=json` (docs/testing.md, "Speed"). */
const SLOW = [
  'test/bench/harness',
  'test/backup/sqlite-backup',
  'test/bench/scale',
  'test/pages/docs.browser',
  'test/hardening/start-checks',
  'test/bench/backup',
  'test/upgrade/two-versions',
  'test/upgrade/schema-newer',
  'test/process/bundle-lazy-modules',
  'test/core/log-terminal',
  'test/pages/portal.browser',
  'test/scale/webhooks-out-instances',
  'test/core/tracing',
  'test/scale/durability',
  'test/backup/postgres-backup',
  'test/pages/dashboard.browser',
  'test/process/cli',
];

const rank = (file: TestSpecification): number => {
  const i = SLOW.findIndex((s) => file.moduleId.includes(`/${s}.`));
  return i < 0 ? SLOW.length : i;
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
