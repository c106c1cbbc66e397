import { chromium, type CDPSession, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServices } from '../core/host/services';
import { startServe } from '../tests/helpers/serve';
import { generatedFlow } from '../tests/helpers/flows';
import config from '../playwright.config';
import { median, ms, type BenchRow } from './stats';

const SIZES = [100, 1000, 5000];
// Medians over nine loads each: a page load on these machines varies by ±20 %, and the
// bare page by more (its onInit comes either before or after the nodes are measured).
const ROUNDS = 9;

/**
 * Milliseconds from navigation to React Flow's onInit (the canvas takes input),
 * as the page recorded it. The wait is a plain CDP evaluation, not
 * page.waitForFunction: that would have Playwright compile its helper script
 * inside the page while it loads (8 ms on these machines), in the middle of
 * what is measured.
 */
async function timeToInteractive(
  page: Page,
  cdp: CDPSession,
  url: string,
  flag: 'flowbenchReady' | 'benchReady',
): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  const waited = cdp.send('Runtime.evaluate', {
    expression: `new Promise((resolve) => {
      const check = () => (window.${flag} === undefined ? setTimeout(check, 10) : resolve(window.${flag}));
      check();
    })`,
    awaitPromise: true,
    returnByValue: true,
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`${url} did not become interactive in 60 s`)), 60_000).unref(),
  );
  const { result } = await Promise.race([waited, timeout]);
  await page.locator('.react-flow__node').first().waitFor();
  return result.value as number;
}

/** Frames per second while a node is dragged back and forth for two seconds. */
async function dragFps(page: Page, nodeSelector: string): Promise<number> {
  const box = await page.locator(nodeSelector).first().boundingBox();
  if (!box) throw new Error(`nothing to drag at ${nodeSelector}`);
  // Strings, not functions: tsx adds helpers to compiled functions that the page does not have.
  await page.evaluate(`(() => {
    window.frames_ = 0;
    window.counting_ = true;
    const tick = () => { if (!window.counting_) return; window.frames_++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  const started = Date.now();
  await page.mouse.move(box.x + 20, box.y + 10);
  await page.mouse.down();
  let step = 0;
  while (Date.now() - started < 2000) {
    step++;
    await page.mouse.move(box.x + 20 + (step % 40) * 5, box.y + 10 + (step % 20) * 3);
  }
  await page.mouse.up();
  const seconds = (Date.now() - started) / 1000;
  const frames = await page.evaluate<number>('(() => { window.counting_ = false; return window.frames_; })()');
  return frames / seconds;
}

/** Issue 5: opening flows and dragging in Chromium, next to a bare React Flow page with the same graph. */
export async function benchUi(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-ui-'));
  const db = join(dir, 'ui.db');
  const services = openServices(db);
  for (const size of SIZES) services.flows.create(generatedFlow(size, `ui-${size}`));
  services.close();
  const serve = await startServe(db);
  const browser = await chromium.launch(config.use?.launchOptions ?? {});
  // The editor's CSP forbids eval; the measuring snippets below are evaluated strings.
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, bypassCSP: true });
  const cdp = await page.context().newCDPSession(page);
  const rows: BenchRow[] = [];
  try {
    for (const size of SIZES) {
      const ours: number[] = [];
      const bare: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        ours.push(await timeToInteractive(page, cdp, `${serve.editorUrl}#/flow/ui-${size}`, 'flowbenchReady'));
        bare.push(await timeToInteractive(page, cdp, `${serve.url}/bench/bare.html?nodes=${size}`, 'benchReady'));
      }
      const ratio = median(ours) / median(bare);
      rows.push({
        suite: 'ui',
        metric: `open ${size.toLocaleString('en')}-node flow to interactive canvas (ours / bare)`,
        value: `${ms(median(ours))} / ${ms(median(bare))}`,
        goal: size === 1000 ? '≤ 1.3× bare, < 1 s' : '≤ 1.3× bare',
        ratio: ratio / 1.3,
      });
      if (size === 1000)
        rows.push({
          suite: 'ui',
          metric: 'open 1,000-node flow, absolute',
          value: ms(median(ours)),
          goal: '< 1000 ms',
          ratio: median(ours) / 1000,
        });
    }
    await timeToInteractive(page, cdp, `${serve.editorUrl}#/flow/ui-1000`, 'flowbenchReady');
    const oursFps = await dragFps(page, '.react-flow__node[data-id="n1"]');
    await timeToInteractive(page, cdp, `${serve.url}/bench/bare.html?nodes=1000`, 'benchReady');
    const bareFps = await dragFps(page, '.react-flow__node[data-id="n1"]');
    rows.push({
      suite: 'ui',
      metric: 'fps dragging a node, 1,000-node flow (ours / bare)',
      value: `${oursFps.toFixed(1)} / ${bareFps.toFixed(1)}`,
      goal: '≥ bare / 1.3',
      ratio: bareFps / oursFps / 1.3,
    });
    return rows;
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
