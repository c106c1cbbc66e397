import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowInput } from '../core/model/flow';
import { openServices } from '../core/services/open-services';
import { generatedFlow } from '../tests/helpers/flows';
import { startServe } from '../tests/helpers/serve';
import config from '../playwright.config';
import { startChildOpenAiServer } from './child-server';
import { median, ms, percentile, type BenchRow } from './stats';

/** Nodes of the flow watched while it runs. */
const LIVE_NODES = 200;
/** The test provider's delay per call: with the engine's own time, about 100 status events a second. */
const CALL_MS = 10;
const OPEN_ROUNDS = 5;

/** Input, a chain of llm nodes, output: laid out in a grid so that the whole flow is on screen. */
function liveFlow(): FlowInput {
  const at = (i: number) => ({ x: (i % 20) * 240, y: Math.floor(i / 20) * 160 });
  const nodes: FlowInput['nodes'] = [{ id: 'n0', type: 'input', label: 'Start', position: at(0) }];
  const edges: NonNullable<FlowInput['edges']> = [];
  for (let i = 1; i < LIVE_NODES - 1; i++) {
    nodes.push({
      id: `n${i}`,
      type: 'llm',
      label: `Call ${i}`,
      position: at(i),
      config: { prompt: `{{nodes.n${i - 1}.output}}` },
    });
    edges.push({ id: `e${i}`, source: `n${i - 1}`, target: `n${i}` });
  }
  const last = LIVE_NODES - 1;
  nodes.push({
    id: `n${last}`,
    type: 'output',
    label: 'Result',
    position: at(last),
    config: { returnValues: [{ id: 'r', text: `{{nodes.n${last - 1}.output}}` }] },
  });
  edges.push({ id: `e${last}`, source: `n${last - 1}`, target: `n${last}` });
  return { schemaVersion: 1, id: 'live', name: 'Live', tool: { name: 'live' }, nodes, edges };
}

/**
 * In the page: when each card first showed each status (Date.now(), the clock
 * the engine stamps its events with), and a frame counter.
 */
const WATCH = `(() => {
  window.seen_ = {};
  window.frames_ = 0;
  window.counting_ = true;
  const tick = () => { if (!window.counting_) return; window.frames_++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new MutationObserver((records) => {
    const now = Date.now();
    for (const record of records) {
      const node = record.target;
      const status = node.dataset?.status;
      if (!status || !node.dataset?.id) continue;
      const key = node.dataset.id + ':' + status;
      if (window.seen_[key] === undefined) window.seen_[key] = now;
    }
  }).observe(document.querySelector('.react-flow__nodes'), { attributes: true, attributeFilter: ['data-status'], subtree: true });
})()`;

async function openEditor(page: Page, url: string): Promise<void> {
  // A fresh page each time: going from one flow's hash to another would keep the previous page's state.
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction('window.flowbenchReady !== undefined');
  await page.getByRole('tab', { name: 'Run' }).click();
}

/** Issue 16: a run seen on the canvas while it happens, and a stored run opened on it. */
export async function benchRunView(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-runview-'));
  const db = join(dir, 'runview.db');
  const model = await startChildOpenAiServer(CALL_MS);
  const services = openServices(db);
  services.providers.set({ name: 'bench', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'm' }, true);
  services.flows.create(liveFlow());
  const big = services.flows.create(generatedFlow(1000, 'open-1000'));
  await services.runner.run({ flow: services.flows.get(big.id), inputs: {}, trigger: 'cli' });
  services.close();
  const serve = await startServe(db);
  const browser = await chromium.launch(config.use?.launchOptions ?? {});
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, bypassCSP: true });
  try {
    // A 200-node flow running: how late each status reaches its card, and the frame rate meanwhile.
    await openEditor(page, `${serve.editorUrl}#/flow/live`);
    await page.evaluate(WATCH);
    const started = Date.now();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .locator('.run-status')
      .filter({ hasText: /^succeeded$/ })
      .waitFor({ timeout: 120_000 });
    const seconds = (Date.now() - started) / 1000;
    const { seen, frames } = await page.evaluate<{ seen: Record<string, number>; frames: number }>(
      '({ seen: window.seen_, frames: window.frames_ })',
    );
    const reader = openServices(db);
    const runId = reader.runs.list({ flowId: 'live', limit: 1 })[0]?.id ?? '';
    const record = reader.runs.get(runId);
    reader.close();
    const lags: number[] = [];
    for (const step of record.steps) {
      const shownRunning = seen[`${step.nodeId}:running`];
      const shownDone = seen[`${step.nodeId}:succeeded`];
      if (shownRunning !== undefined && step.startedAt) lags.push(shownRunning - Date.parse(step.startedAt));
      if (shownDone !== undefined && step.finishedAt) lags.push(shownDone - Date.parse(step.finishedAt));
    }
    const eventsPerSecond = (record.steps.length * 2) / ((record.durationMs ?? 1) / 1000);
    const p95 = percentile(lags, 95);
    const fps = frames / seconds;

    // A stored run of a 1,000-node flow opened from the Run tab, until every card shows its status.
    const opens: number[] = [];
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      await openEditor(page, `${serve.editorUrl}#/flow/open-1000`);
      await page.locator('.recent-runs button.link').first().waitFor();
      opens.push(
        await page.evaluate<number>(`new Promise((resolve) => {
          const startedAt = performance.now();
          document.querySelector('.recent-runs button.link').click();
          const check = () => {
            const nodes = document.querySelectorAll('.react-flow__node');
            const done = document.querySelectorAll('.react-flow__node[data-status="succeeded"]');
            if (nodes.length > 0 && done.length === nodes.length) resolve(performance.now() - startedAt);
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        })`),
      );
    }
    const openMs = median(opens);
    return [
      {
        suite: 'runview',
        metric: `engine event → status on its card, p50 / p95 (${lags.length} events, ${eventsPerSecond.toFixed(0)}/s)`,
        value: `${ms(percentile(lags, 50))} / ${ms(p95)}`,
        goal: 'p95 < 50 ms at 100/s',
        ratio: p95 / 50,
      },
      {
        suite: 'runview',
        metric: `fps while a ${LIVE_NODES}-node flow runs (${seconds.toFixed(1)} s)`,
        value: fps.toFixed(1),
        goal: '≥ 50 fps',
        ratio: 50 / fps,
      },
      {
        suite: 'runview',
        metric: 'open a stored run of a 1,000-node flow on the canvas',
        value: ms(openMs),
        goal: '< 1000 ms',
        ratio: openMs / 1000,
      },
    ];
  } finally {
    await browser.close();
    await serve.stop();
    model.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
