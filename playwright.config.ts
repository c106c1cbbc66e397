import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './tests/helpers/chromium';

// Browser tests' servers keep secrets in their own database, never in the developer's keychain.
process.env.FLOWBENCH_SECRETS ??= 'plain-text';

const executablePath = findChromium({ headlessShell: true });

export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results/playwright',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Each test has its own server, database and browser context. Files run three at a time (a file's
  // tests in order): browser tests mostly wait on the page (the suite used 320 s of CPU in 375 s on
  // two cores with two workers), and three took it from 375 to 324 s on CI's two cores. Every test
  // of a file spread over the workers as well (fullyParallel) was slower, 335 s.
  fullyParallel: false,
  workers: 3,
  reporter: [['list']],
  use: {
    // A step that cannot happen fails in seconds, naming what it waited for, instead of at the test's time limit.
    actionTimeout: 15_000,
    viewport: { width: 1400, height: 860 },
    // Times and numbers read the same on every machine (the home screen's "2 minutes ago").
    locale: 'en-US',
    // A failed test keeps its screenshot (and Playwright's page snapshot). A trace records every
    // test to keep the failed ones: on CI's two cores that cost about 15 % of the browser suite's
    // time (3 spec files, five runs each way), so CI goes without; run a failing test locally,
    // where traces stay on, to see its trace.
    screenshot: 'only-on-failure',
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: CHROMIUM_ARGS,
    },
  },
});
