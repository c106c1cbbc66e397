import { existsSync } from 'node:fs';

/**
 * A Chromium found on the machine: CHROMIUM_PATH, then the usual places
 * (Debian's package, Chrome), else undefined (Playwright's own, if a developer
 * installed it). Nothing here downloads a browser.
 */
export function findChromium(): string | undefined {
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

/** Flags for a headless Chromium on a machine without a GPU, a sandbox or network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
