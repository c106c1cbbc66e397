import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './tests/helpers/chromium';

// Browser tests' servers keep secrets in their own database, never in the developer's keychain.
process.env.FLOWBENCH_SECRETS ??= 'plain-text';

const executablePath = findChromium();

export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results/playwright',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    // A step that cannot happen fails in seconds, naming what it waited for, instead of at the test's time limit.
    actionTimeout: 15_000,
    viewport: { width: 1400, height: 860 },
    // Times and numbers read the same on every machine (the home screen's "2 minutes ago").
    locale: 'en-US',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: CHROMIUM_ARGS,
    },
  },
});
