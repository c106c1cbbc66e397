import { defineConfig } from 'vitest/config';

// Tests (and the CLIs and servers they spawn) keep secrets in their own
// database, never in the developer's keychain; the keychain path has its own
// test with a stand-in binding.
process.env.FLOWBENCH_SECRETS ??= 'plain-text';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/browser/**', 'node_modules/**'],
    globalSetup: ['tests/setup/build-node.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // CLI tests spawn processes; two workers match the two cores of CI.
    maxWorkers: 2,
    // A worker runs one test file after another with the modules it has loaded, instead of a new
    // process each (126 of them): the whole run took 303 s instead of 378 here, its workers 54 s of
    // CPU instead of 169. No test changes the environment or globals; the two that check what
    // happens once in a process read their own copy of its modules (model-warm-up*.test.ts).
    isolate: false,
  },
});
