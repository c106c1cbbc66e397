/**
 * `npm run screenshots`: the README's pictures of the editor, light and dark,
 * taken from a real `flowbench serve` in the machine's Chromium. The example
 * flows are installed in a temporary database; the triage example runs
 * against a local OpenAI-compatible test server, so the canvas shows real
 * statuses and outputs. Writes docs/screenshots/*.png.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installExamples } from '../core/services/examples';
import { CHROMIUM_ARGS, findChromium } from '../tests/helpers/chromium';
import { prepareDatabase } from '../tests/helpers/mcp';
import { startOpenAiServer } from '../tests/helpers/openai-server';
import { startServe } from '../tests/helpers/serve';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
// Wide enough that the triage example opens with its cards in full (see COMPACT_ZOOM).
const VIEWPORT = { width: 1720, height: 920 };

/** Answers like a model would for the triage example: the classification as JSON, then a reply. */
const model = await startOpenAiServer((request) => {
  const prompt = JSON.stringify(request.body.messages ?? []);
  return {
    content: prompt.includes('Classify this ticket')
      ? JSON.stringify({ category: 'billing', urgency: 'normal', reason: 'charged twice' })
      : 'Hi there, sorry about the double charge: the second payment is refunded and you will see it in 3 days.',
  };
});
const dir = mkdtempSync(join(tmpdir(), 'flowbench-screenshots-'));
const db = join(dir, 'screenshots.db');
prepareDatabase(db, (services) => {
  installExamples(services.flows);
  services.providers.set(
    { name: 'local', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'gpt-4o-mini', streaming: false },
    true,
  );
});
const serve = await startServe(db);
const executablePath = findChromium();
const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
mkdirSync(OUT, { recursive: true });

async function shoot(page: Page, name: string): Promise<void> {
  // Let transitions (the minimap fading, toasts) settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  process.stdout.write(`wrote docs/screenshots/${name}.png\n`);
}

try {
  for (const theme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: theme });
    await page.goto(serve.editorUrl);
    await page.getByTestId('flow-row-triage_ticket').waitFor();
    await shoot(page, `home-${theme}`);

    await page.goto(`${serve.editorUrl}#/flow/example-triage-ticket`);
    await page.locator('.react-flow__node').first().waitFor();
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel(/^ticket/).fill('I was charged twice for my subscription this month.');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('.run-status').getByText('succeeded', { exact: true }).waitFor();
    await shoot(page, `editor-run-${theme}`);
    await page.getByTestId('rf__node-classify').click();
    await page.getByRole('tab', { name: 'Inspector' }).click();
    await shoot(page, `editor-inspector-${theme}`);
    // The Chat tab: the same flow written to twice, each message a run.
    await page.getByRole('tab', { name: 'Chat' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });
    for (const [i, text] of [
      'I was charged twice for my subscription this month.',
      'And my invoice shows the wrong address.',
    ].entries()) {
      await message.fill(text);
      await message.press('Enter');
      await page.locator('.chat-answer:not(.is-pending)').nth(i).waitFor();
    }
    await shoot(page, `editor-chat-${theme}`);
    await page.close();
  }
} finally {
  await browser.close();
  await serve.stop();
  await model.close();
  rmSync(dir, { recursive: true, force: true });
}
