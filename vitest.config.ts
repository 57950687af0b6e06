import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The build first: process tests run dist/ (test/helpers/spawn-service.ts).
    globalSetup: ['test/dist-setup.ts', 'test/oracles-setup.ts'],
    setupFiles: ['test/contract-setup.ts'],
  },
});
