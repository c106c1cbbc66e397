import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/browser/**', 'node_modules/**'],
    globalSetup: ['tests/setup/build-node.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CLI tests spawn processes; two workers match the two cores of CI.
    maxWorkers: 2,
  },
});
