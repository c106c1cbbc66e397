import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * Browser tests run in a Chromium found on the machine: CHROMIUM_PATH, then
 * the usual places (Debian's package, Chrome), else Playwright's own if a
 * developer installed it. Nothing here downloads a browser.
 */
function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ];
  return candidates.find((path) => path !== undefined && existsSync(path));
}

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
    viewport: { width: 1400, height: 860 },
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
