import type { Page } from '@playwright/test';
import { summaryChain } from '../helpers/flows';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

const chain = summaryChain();

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

async function run(page: Page) {
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('hello');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
}

test('D deactivates the selected node, as n8n’s: a run passes over it, handing on what came in; D again, the inspector’s box or Undo bring it back', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: 'SUMMARY' }));
  await openFlow(page, served, chain);
  const stored = (id: string) => storedFlow(served.db, 'chain').nodes.find((n) => n.id === id)?.disabled;

  await card(page, 'summarise').click();
  await page.keyboard.press('d');
  await expect(card(page, 'summarise')).toHaveClass(/is-deactivated/);
  await expect(card(page, 'summarise')).toContainText('Deactivated · LLM');
  await expect(page.locator('#node-deactivated')).toBeChecked();
  await expectSaved(page);
  expect(stored('summarise')).toBe(true);

  // The run hands clean's text on past the model, which is never asked.
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('CLEAN hello');
  await expect(card(page, 'summarise')).toContainText('passed over: deactivated');
  await expect(page.locator('.steps li', { hasText: 'summarise' })).toContainText('succeeded passed over');
  expect(model.requests).toHaveLength(0);

  // The inspector's box activates it again; Undo takes that back; D on it once more activates it.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.locator('#node-deactivated').uncheck();
  await expect(card(page, 'summarise')).not.toHaveClass(/is-deactivated/);
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('Control+z');
  await expect(card(page, 'summarise')).toHaveClass(/is-deactivated/);
  await card(page, 'summarise').click();
  await page.keyboard.press('d');
  await expect(card(page, 'summarise')).not.toHaveClass(/is-deactivated/);

  // The input and output nodes always run: D leaves them, and they offer no box.
  await card(page, 'result').click();
  await page.keyboard.press('d');
  await expect(page.locator('#node-deactivated')).toHaveCount(0);
  await expect(card(page, 'result')).not.toHaveClass(/is-deactivated/);
  await expectSaved(page);
  expect(stored('summarise')).toBeUndefined();
  expect(stored('result')).toBeUndefined();

  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('SUMMARY');
  expect(model.requests).toHaveLength(1);

  // The first run, opened now that summarise runs again, is shown over the flow as it ran: passed over there.
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(2);
  await recent.nth(1).click();
  await expect(page.getByTestId('past-run')).toBeVisible();
  await expect(card(page, 'summarise')).toHaveClass(/is-deactivated/);
  await expect(card(page, 'summarise')).toContainText('passed over: deactivated');
});

test('Run to “…” runs the selected node and what it needs, nothing after it, as n8n’s Execute step: from the Run tab and the right-click menu', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: 'SUMMARY' }));
  await openFlow(page, served, chain);

  // Before any run, with the form's inputs: clean runs, the model after it is never asked.
  await card(page, 'clean').click();
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('hello');
  await page.getByRole('button', { name: 'Run to “clean”' }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  await expect(page.getByTestId('run-to')).toContainText(
    'Run to clean: it and the nodes it needs ran, nothing after it.',
  );
  await expect(page.getByRole('region', { name: 'What the node gave' })).toContainText('CLEAN hello');
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toHaveCount(0);
  await expect(card(page, 'summarise')).toHaveAttribute('data-status', 'skipped');
  await expect(card(page, 'result')).toHaveAttribute('data-status', 'skipped');
  expect(model.requests).toHaveLength(0);

  // A node still being set up beside the output (no tool chosen) blocks a whole run, not a run to the model.
  await card(page, 'result').click();
  await page.getByTestId('palette-mcp_tool').click();
  await expect(card(page, 'mcp_tool_1')).toBeVisible();
  await page.getByRole('tab', { name: 'Run' }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();

  // From the right-click menu: to the model, which now answers; the output node still does not run.
  await card(page, 'summarise').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Run to here' }).click();
  await expect(page.getByRole('region', { name: 'What the node gave' })).toContainText('SUMMARY');
  await expect(card(page, 'result')).toHaveAttribute('data-status', 'skipped');
  expect(model.requests).toHaveLength(1);
  // Opened from the list and re-run: to the same node again, not the whole flow.
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(2);
  await recent.first().click();
  await expect(page.getByTestId('run-to')).toContainText('Run to summarise');
  await page.getByRole('button', { name: 'Re-run with them' }).click();
  await expect(recent).toHaveCount(3);
  await expect(page.getByTestId('run-to')).toContainText('Run to summarise');
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  expect(model.requests).toHaveLength(2);
  // The output node has no Run to: running to it is the whole run.
  await card(page, 'result').click();
  await expect(page.getByRole('button', { name: /^Run to/ })).toHaveCount(0);
});

test('Pin this output, as n8n’s pinned data: runs started here take it instead of asking the model again, until it is unpinned', async ({
  page,
  served,
  localModel,
}) => {
  let answer = 'FIRST';
  const model = await localModel(() => ({ content: answer }));
  await openFlow(page, served, chain);
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('FIRST');

  await card(page, 'summarise').click();
  await page.getByRole('button', { name: 'Pin this output' }).click();
  await expect(card(page, 'summarise')).toContainText('Pinned · LLM');
  await expectSaved(page);
  expect(storedFlow(served.db, 'chain').nodes.find((n) => n.id === 'summarise')?.pin).toEqual({ output: 'FIRST' });

  // The model would answer otherwise now: the pin stands in, the model is not asked.
  answer = 'SECOND';
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('FIRST');
  await expect(card(page, 'summarise')).toContainText('pinned output');
  expect(model.requests).toHaveLength(1);

  // The inspector says it is pinned, and unpins it: the model answers again.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await expect(page.getByTestId('pinned-output')).toContainText('FIRST');
  await page.getByTestId('pinned-output').getByRole('button', { name: 'Unpin' }).click();
  await expect(card(page, 'summarise')).not.toContainText('Pinned');
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('SECOND');
  expect(model.requests).toHaveLength(2);
});

test('P pins the selected node’s output from the run shown and unpins it; with nothing run there it opens the inspector to write one, kept until pinned, and closing asks first', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: 'FROM THE MODEL' }));
  await openFlow(page, served, chain);
  const pinOf = () => storedFlow(served.db, 'chain').nodes.find((n) => n.id === 'summarise')?.pin;

  // Nothing has run: P opens the inspector's editor, focused, to write the output by hand (n8n's mock data).
  await card(page, 'summarise').click();
  await page.keyboard.press('p');
  const text = page.getByRole('group', { name: 'Output to pin' }).getByRole('textbox');
  await expect(text).toBeFocused();
  await page.keyboard.type('WRITTEN BY HAND');
  // Another node selected and back: what was typed is still there, not pinned yet.
  await card(page, 'clean').click();
  await card(page, 'summarise').click();
  await expect(text).toHaveValue('WRITTEN BY HAND');
  expect(pinOf()).toBeUndefined();
  await text.press('Control+Enter');
  await expect(card(page, 'summarise')).toContainText('Pinned · LLM');
  await expect(page.locator('.run-status')).toHaveCount(0);
  await expectSaved(page);
  expect(pinOf()).toEqual({ output: 'WRITTEN BY HAND' });
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('WRITTEN BY HAND');
  expect(model.requests).toHaveLength(0);

  // Edit, as JSON: text that is not JSON is said and cannot be pinned; JSON is.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.getByTestId('pinned-output').getByRole('button', { name: 'Edit' }).click();
  await expect(text).toHaveValue('WRITTEN BY HAND');
  await page.getByRole('checkbox', { name: /^JSON/ }).check();
  await expect(page.getByRole('group', { name: 'Output to pin' })).toContainText('not JSON');
  await expect(page.getByRole('button', { name: 'Save pin' })).toBeDisabled();
  await text.fill('{"title": "Hand-made", "words": 2}');
  await page.getByRole('button', { name: 'Save pin' }).click();
  await expect(page.getByTestId('pinned-output')).toContainText('Hand-made');
  await expectSaved(page);
  expect(pinOf()).toEqual({ output: { title: 'Hand-made', words: 2 } });

  // P again unpins; after a run, P pins what the run gave there; the right-click menu says what P does.
  await card(page, 'summarise').click();
  await page.keyboard.press('p');
  await expect(card(page, 'summarise')).not.toContainText('Pinned');
  await run(page);
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('FROM THE MODEL');
  expect(model.requests).toHaveLength(1);
  await card(page, 'summarise').click();
  await page.keyboard.press('p');
  await expect(card(page, 'summarise')).toContainText('Pinned · LLM');
  await expectSaved(page);
  expect(pinOf()).toEqual({ output: 'FROM THE MODEL' });
  await card(page, 'summarise').click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: /Unpin output\s*P/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // An output being written and not pinned: closing the page asks first, and staying keeps it.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.getByTestId('pinned-output').getByRole('button', { name: 'Edit' }).click();
  await text.fill('NOT PINNED YET');
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await expect(text).toHaveValue('NOT PINNED YET');
});

test('a pin that is not what its node gives (its JSON schema) refuses the run, naming the node', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: '{"urgency": "high"}' }));
  const schema = { type: 'object', properties: { urgency: { enum: ['low', 'high'] } }, required: ['urgency'] };
  const typed = {
    ...chain,
    nodes: chain.nodes.map((n) =>
      n.id === 'summarise'
        ? {
            ...n,
            config: { ...n.config, outputFormat: 'json', jsonSchema: schema },
            pin: { output: { urgency: 'soon' } },
          }
        : n,
    ),
  };
  await openFlow(page, served, typed);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('hello');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const refused = page.getByRole('alert', { name: 'Refused' });
  await expect(refused).toContainText('The run did not start');
  await expect(refused).toContainText(
    'pinned output is not what the node gives: /urgency must be equal to one of the allowed values',
  );
  expect(model.requests).toHaveLength(0);
});

test('an output being written to pin for a node that was then removed does not hold the page: it closes without asking', async ({
  page,
  served,
}) => {
  await openFlow(page, served, chain);
  await card(page, 'summarise').click();
  await page.keyboard.press('p');
  const text = page.getByRole('group', { name: 'Output to pin' }).getByRole('textbox');
  await expect(text).toBeFocused();
  await page.keyboard.type('HALF WRITTEN');
  await page.keyboard.press('Escape');
  await card(page, 'summarise').click();
  await page.keyboard.press('Delete');
  await expect(card(page, 'summarise')).toHaveCount(0);
  await expectSaved(page);
  let asked = false;
  page.on('dialog', (dialog) => {
    asked = true;
    void dialog.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(asked).toBe(false);
});
