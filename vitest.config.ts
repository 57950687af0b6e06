import { defineConfig } from 'vitest/config';
import SlowFirst from './test/slow-first.js';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on child processes, sockets and databases rather than compute, so four
    // workers keep two cores busy (vitest's default is one fewer than the cores: one here).
    maxWorkers: 4,
    sequence: { sequencer: SlowFirst },
    // Two projects, each file run once: the service's tests, and the emulator's, which run from
    // their own package too (packages/platform-emulator/vitest.config.ts).
    projects: [
      {
        extends: true,
        test: {
          name: 'fleetgate',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          // The build first: process tests run dist/ (test/helpers/spawn-service.ts).
          globalSetup: ['test/dist-setup.ts', 'test/oracles-setup.ts'],
          setupFiles: ['test/contract-setup.ts'],
        },
      },
      'packages/platform-emulator',
    ],
  },
});
