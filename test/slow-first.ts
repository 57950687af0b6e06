/**
 * Vitest sequencer: the files known to take longest start first, so on a clean clone (no timing
 * cache yet, where vitest orders files by size) none of them starts last and ends the run alone.
 * After that, vitest's own order (by the last run's durations when it has them).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as measured by `npx vitest run --reporter=json` (docs/testing.md, "Speed"). */
const SLOW = [
  'test/bench/harness',
  'test/bench/scale',
  'test/bench/backup',
  'test/backup/sqlite-backup',
  'test/scale/durability',
  'test/upgrade/schema-newer',
  'test/backup/postgres-backup',
  'test/process/bundle-lazy-modules',
  'test/upgrade/two-versions',
  'test/hardening/start-checks',
  'test/core/log-terminal',
  'test/process/cli',
  'test/scale/webhooks-out-instances',
  'test/gateway/mcp/gateway-mcp-inspector',
  'test/store/postgres-store',
  'test/core/tracing',
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
