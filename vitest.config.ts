import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
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
