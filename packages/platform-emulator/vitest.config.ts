// The emulator's own test project: `npx vitest run` here, or one project of the root's `npm test`.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'platform-emulator',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/oracles-setup.ts'],
    setupFiles: ['test/contract-setup.ts'],
  },
});
