import { defineConfig } from 'vitest/config';
import SlowFirst from './test/slow-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on child processes, sockets and databases rather than compute, so four
    // workers keep two cores busy (vitest's default is one fewer than the cores: one here).
    maxWorkers: 4,
    sequence: { sequencer: SlowFirst },
    // The build first: process tests run dist/ (test/helpers/spawn-service.ts).
    globalSetup: ['test/dist-setup.ts', 'test/oracles-setup.ts'],
    setupFiles: ['test/contract-setup.ts'],
  },
});
