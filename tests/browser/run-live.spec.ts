import type { Page } from '@playwright/test';
import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { runCli } from '../helpers/cli';
import { connectStdio } from '../helpers/mcp';
import { chunkGate } from '../helpers/openai-server';
import { expect, openFlow, test, withDatabase, zoomToDetail } from './fixtures';

/** Input → llm → output, laid out side by side. */
const slow = {
  ...buildFlow({
    id: 'slow',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        ...llm('answer', 'Tell me about {{inputs.topic}}.', { system: 'Be brief.' }),
        label: 'Answer',
        position: { x: 320, y: 100 },
      },
      { ...output('{{nodes.answer.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>answer', 'answer>result'],
  }),
  name: 'Slow',
};

/** A flow that needs no model, published as the tool echo_live. */
const templateOnly = {
  ...buildFlow({
    id: 'echo-live',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { id: 'say', type: 'template', config: { template: 'echo: {{inputs.text}}' }, position: { x: 320, y: 100 } },
      { ...output('{{nodes.say.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>say', 'say>result'],
  }),
  name: 'Echo live',
  tool: { name: 'echo_live', description: 'Echoes.' },
};

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

test('a run live on the canvas: elapsed time, streamed tokens in the selected step, then duration, tokens, cost and marked edges; cancel shows cancelled (issue 16, points 2, 3 and 8)', async ({
  page,
  served,
  localModel,
}) => {
  // The answer's chunks come out when the test lets them: each is on screen until it was seen.
  const gate = chunkGate();
  await localModel((request) =>
    String(request.body.messages?.at(-1)?.content).includes('forever')
      ? { delayMs: 20_000, content: 'never' }
      : { chunks: ['Otters ', 'hold ', 'hands.'], beforeChunk: gate.beforeChunk },
  );
  withDatabase(served.db, (services) =>
    services.providers.setPrice({ model: 'test-model', inputPerMillion: 1000, outputPerMillion: 2000 }),
  );
  await openFlow(page, served, slow);
  await page.getByRole('tab', { name: 'Run' }).click();
  await card(page, 'answer').click();
  await page.locator('#run-input-topic').fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  // Queued until the run reaches it, then running: the card counts the seconds; the selected step shows the tokens as they stream.
  await expect(card(page, 'result').getByRole('img', { name: 'queued' })).toBeVisible();
  await expect(card(page, 'answer').getByRole('img', { name: 'running' })).toBeVisible();
  await expect(card(page, 'answer').locator('.fb-step-line-running')).toHaveText(/^\d+\.\d s$/);
  const details = page.getByRole('region', { name: 'Step details' });
  // The answer as it streams, chunk by chunk, while the step still runs.
  const streamed = () =>
    page.evaluate<string>(`document.querySelector('[aria-label="Step details"] .step-block pre')?.textContent ?? ''`);
  gate.release();
  await expect.poll(streamed).toBe('Otters ');
  gate.release();
  await expect.poll(streamed).toBe('Otters hold ');
  // The card shows the text as it streams too, as Rivet's nodes do.
  const onCard = () =>
    page.evaluate<string>(`document.querySelector('[data-id="answer"] .fb-step-output-streaming')?.textContent ?? ''`);
  await expect.poll(onCard).toBe('Otters hold');
  await expect(card(page, 'answer').getByRole('img', { name: 'running' })).toBeVisible();
  gate.release();

  // Done: duration, tokens and cost on the card, the edges that carried data marked.
  await expect(card(page, 'answer').getByRole('img', { name: 'succeeded' })).toBeVisible();
  await expect(card(page, 'answer').locator('.fb-step-line')).toHaveText(/^\d+ ms · 15 tokens · \$0\.02$/);
  await expect(page.locator('.react-flow__edge-path.edge-carried')).toHaveCount(2);
  await expect(page.getByTestId('run-usage')).toHaveText('· 15 tokens · $0.02');
  // Each card keeps what its step gave: what every node did is read off the canvas.
  await expect(card(page, 'answer').locator('.fb-step-output')).toHaveText('Otters hold hands.');
  await expect(card(page, 'input').locator('.fb-step-output')).toHaveText('{"topic":"otters"}');
  // The result as a caller gets it: its text, not the run's record of it.
  await expect(card(page, 'result').locator('.fb-step-output')).toHaveText('Otters hold hands.');
  await page.screenshot({ path: test.info().outputPath('card-outputs-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('card-outputs-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // Inspection: the exact messages the model got, the output, the model and cost, copyable.
  await expect(details.locator('.message pre')).toHaveText([
    'Be brief.',
    'Tell me about otters.',
    'Otters hold hands.',
  ]);
  await expect(details.locator('.facts')).toContainText('local · test-model');
  await expect(details.locator('.facts')).toContainText('10 in, 5 out');
  await expect(details.getByRole('button', { name: 'Copy messages sent and received' })).toBeVisible();

  // Cancel: a run that would wait 20 s ends cancelled, on the canvas and in the Run tab.
  await page.locator('#run-input-topic').fill('forever');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(card(page, 'answer').getByRole('img', { name: 'running' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.run-status')).toHaveText('cancelled');
  await expect(card(page, 'answer').getByRole('img', { name: 'cancelled' })).toBeVisible();
  await expect(card(page, 'answer').locator('.fb-step-line')).toHaveText('CANCELLED');
  // Nothing of the run before stays on the card.
  await expect(card(page, 'answer').locator('.fb-step-output')).toHaveCount(0);
});

test('an old run opens over the flow it ran, read-only, after the flow changed; the runs page lists every flow’s runs and deletes one (issue 16, point 4)', async ({
  page,
  served,
  localModel,
}) => {
  await localModel(() => ({ content: 'Otters hold hands.' }));
  await openFlow(page, served, slow);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-topic').fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');

  // The flow changes: the model node is replaced by a template.
  await card(page, 'answer').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.keyboard.press('Delete');
  await expect(card(page, 'answer')).toHaveCount(0);

  await page.reload();
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('region', { name: 'Recent runs' }).locator('button.link').first().click();
  await expect(page.getByTestId('past-run')).toContainText('on the flow as it ran');
  // The node the draft no longer has is back, with its status and its output in the step details.
  await expect(card(page, 'answer').getByRole('img', { name: 'succeeded' })).toBeVisible();
  await card(page, 'answer').click();
  await expect(page.getByRole('region', { name: 'Step details' }).locator('.step-block pre').last()).toHaveText(
    'Otters hold hands.',
  );
  // Read-only: Delete does nothing to what is shown.
  await page.keyboard.press('Delete');
  await expect(card(page, 'answer')).toHaveCount(1);
  await page.getByRole('button', { name: 'Back to the draft' }).click();
  await expect(card(page, 'answer')).toHaveCount(0);
  await expect(page.getByTestId('past-run')).toHaveCount(0);

  // Every flow's runs on one page; one opens over its flow, one is deleted.
  await page.goto(`${served.editorUrl}#/runs`);
  await expect(page.getByRole('heading', { name: 'All runs' })).toBeVisible();
  const rows = page.locator('.runs-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Slow');
  await expect(rows.first()).toContainText('succeeded');
  await page.getByRole('combobox', { name: 'Ended' }).selectOption('failed');
  await expect(rows).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Ended' }).selectOption('');
  await rows.first().getByRole('button', { name: 'Slow' }).click();
  await expect(page.getByTestId('past-run')).toBeVisible();
  await page.goto(`${served.editorUrl}#/runs`);
  await rows
    .first()
    .getByRole('button', { name: /Delete run/ })
    .click();
  await expect(rows).toHaveCount(0);
  withDatabase(served.db, (services) => expect(services.runs.count()).toBe(0));
});

test('All runs names its columns, and a failed run shows its error code and node, the message on hover', async ({
  page,
  served,
  localModel,
}) => {
  // A refusal the engine does not retry: the run fails at once at the model node.
  await localModel(() => ({ status: 400 }));
  withDatabase(served.db, (services) => services.flows.create(slow));
  expect((await runCli(['--db', served.db, 'run', 'slow', '--input', 'topic=otters'])).code).toBe(1);
  await page.goto(`${served.editorUrl}#/runs`);
  await expect(page.locator('.runs-table th')).toHaveText([
    'Flow',
    'Status',
    'Started by',
    'Started',
    'Took',
    'Cost',
    '',
  ]);
  const row = page.locator('.runs-table tbody tr');
  await expect(row).toHaveCount(1);
  const why = row.locator('.run-error-code');
  await expect(why).toHaveText(/^[A-Z_]+ at answer$/);
  await expect(why).toHaveAttribute('title', /400/);
  await expect(row).toContainText('failed');
});

test('the Run tab lists a run an MCP client started, while it is open (issue 16, point 4)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, templateOnly);
  withDatabase(served.db, (services) => services.versions.publish('echo-live'));
  await page.getByRole('tab', { name: 'Run' }).click();
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(0);
  const { client } = await connectStdio(served.db, 'claude-desktop');
  try {
    const result = await client.callTool({ name: 'echo_live', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    // No reload: the open tab learns of the other process's run by itself.
    await expect(recent).toHaveCount(1);
    await expect(recent.first()).toContainText('succeeded · mcp (claude-desktop)');
  } finally {
    await client.close();
  }
});

test('zoomed far out, the edges a run carried data along stay marked, and the statuses show on the cards', async ({
  page,
  served,
}) => {
  await openFlow(page, served, templateOnly);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('far');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  await expect(page.locator('.react-flow__edge-path.edge-carried')).toHaveCount(2);
  await zoomToDetail(page, 'box');
  // One path draws both carried edges (two segments), none is left plain; each card shows how its step ended.
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  const carried = page.locator('.fb-far-edges path.carried');
  await expect(carried).toHaveCount(1);
  expect(((await carried.getAttribute('d')) ?? '').match(/M/g)).toHaveLength(2);
  await expect(page.locator('.fb-far-edges path.plain')).toHaveCount(0);
  for (const id of ['input', 'say', 'result']) await expect(card(page, id)).toHaveAttribute('data-status', 'succeeded');
});
