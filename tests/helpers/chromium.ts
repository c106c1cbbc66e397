import { existsSync } from 'node:fs';

/**
 * Chromium's headless build (Debian's chromium-headless-shell package, the
 * same browser engine without the desktop browser's UI): what Playwright
 * itself runs headless tests in. The browser suite took 7.1 minutes in it
 * against 12.1 in the full browser on CI's two cores, all 176 tests passing
 * in both: the full one, headless, still runs its own UI's pages (renderers
 * with --top-chrome-webui) and paid twice the renderer CPU for the same tests.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * A Chromium found on the machine: CHROMIUM_PATH, then the usual places
 * (Debian's package, Chrome), else undefined (Playwright's own, if a developer
 * installed it). Nothing here downloads a browser. `headlessShell` (the
 * browser tests) looks for Chromium's headless build first; the benchmarks
 * and the screenshots keep the full browser, the one the app's figures were
 * measured in.
 */
export function findChromium({ headlessShell = false } = {}): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    ...(headlessShell ? [HEADLESS_SHELL] : []),
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
