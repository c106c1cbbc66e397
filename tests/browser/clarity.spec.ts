import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { generatedFlow } from '../helpers/flows';
import type { Page } from '@playwright/test';
import { connect, expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

/** Replaces the text of the selected node's first template field, as typed. */
async function retypeTemplate(page: Page, text: string): Promise<void> {
  await page.locator('.inspector .cm-content').first().click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
}

/** input → draft → polish → result, side by side: polish back into draft would close a loop. */
const chain = {
  ...buildFlow({
    id: 'chain',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...template('draft', 'About {{inputs.topic}}'), label: 'Draft', position: { x: 320, y: 100 } },
      { ...template('polish', 'Polish: {{nodes.draft.output}}'), label: 'Polish', position: { x: 640, y: 100 } },
      { ...output('{{nodes.polish.output}}'), position: { x: 960, y: 100 } },
    ],
    edges: ['input>draft', 'draft>polish', 'polish>result'],
  }),
  name: 'Chain',
};

test('the Run panel lists what blocks a run, and a click goes to the node (issue 17, point 2)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, chain);
  // A reference to a node that does not exist: the engine would refuse the run.
  await page.getByTestId('rf__node-polish').click();
  await retypeTemplate(page, '{{nodes.nowhere.output}}');
  await page.getByRole('tab', { name: 'Run' }).click();
  const blockers = page.getByTestId('run-blockers');
  await expect(blockers).toContainText('This flow cannot run yet: 1 problem to fix');
  await expect(blockers.getByRole('button')).toContainText('nowhere');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('run-blockers.png') });

  await page.getByTestId('rf__node-draft').click();
  await expect(page.getByTestId('rf__node-polish')).not.toHaveClass(/selected/);
  await blockers.getByRole('button').click();
  await expect(page.getByTestId('rf__node-polish')).toHaveClass(/selected/);

  // Fixed, the list goes and Run is offered.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await retypeTemplate(page, 'Polish: {{nodes.draft.output}}');
  await page.getByRole('tab', { name: 'Run' }).click();
  await expect(page.getByTestId('run-blockers')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});

test('dragging a connection back says it makes a loop, and a second loop from one node is refused and why (issues 17 point 2, 15 point 4)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'gated',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { ...template('input_gate', 'Gate'), label: 'Gate', position: { x: 260, y: 100 } },
        { ...template('draft', 'About it'), label: 'Draft', position: { x: 520, y: 100 } },
        { ...template('polish', 'Polish: {{nodes.draft.output}}'), label: 'Polish', position: { x: 780, y: 100 } },
      ],
      edges: ['input>input_gate', 'input_gate>draft', 'draft>polish'],
    }),
    name: 'Gated',
  });
  await expect(page.locator('.react-flow__edge')).toHaveCount(3);
  await connect(page, 'polish', 'draft', {
    beforeRelease: async () => {
      await expect(page.locator('.connection-loop')).toContainText(
        'A loop: the nodes between run again, at most 3 passes',
      );
      await page.screenshot({ path: test.info().outputPath('loop-offered.png') });
    },
  });
  await expect(page.locator('.react-flow__edge')).toHaveCount(4);
  await expectSaved(page);
  // Polish already goes back; a second loop from it is refused while dragging and after.
  await connect(page, 'polish', 'input_gate', {
    beforeRelease: async () => {
      const refusal = page.locator('.connection-refusal');
      await expect(refusal).toContainText('Not allowed: it would go back');
      await expect(refusal).toContainText('"Polish" already loops back to "Draft"; a node starts one loop');
      await expect(page.locator('.fb-connection-line.invalid')).toHaveCount(1);
      await page.screenshot({ path: test.info().outputPath('cycle-refused.png') });
    },
  });
  await expect(page.getByRole('status').filter({ hasText: 'Not connected: it would go back' })).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(4);
});

test('the inspector offers upstream values as chips that insert their reference (issue 17, point 3)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, chain);
  await page.getByTestId('rf__node-polish').click();
  const chips = page.getByRole('group', { name: 'Insert a reference' });
  // Only what is upstream of polish: the parameter and draft (and the input node), never result.
  await expect(chips.getByRole('button')).toHaveText(['inputs.topic', 'nodes.input.output', 'nodes.draft.output']);

  // At the cursor of the field the person was in.
  const field = page.locator('.inspector .cm-content').first();
  await field.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' for ');
  await chips.getByRole('button', { name: 'inputs.topic' }).click();
  await expect(field).toHaveText('Polish: {{nodes.draft.output}} for {{inputs.topic}}');
  await page.screenshot({ path: test.info().outputPath('reference-chips.png') });
  await expectSaved(page);
  expect(storedFlow(served.db, 'chain').nodes.find((n) => n.id === 'polish')?.config.template).toBe(
    'Polish: {{nodes.draft.output}} for {{inputs.topic}}',
  );

  // With no field of this node entered yet, a chip inserts into its first template field.
  // Wait for the inspector to show draft: reading its field at once could still read polish's.
  await page.getByTestId('rf__node-draft').click();
  const draftField = page.locator('.inspector .cm-content').first();
  await expect(draftField).toHaveText('About {{inputs.topic}}');
  await expect(chips.getByRole('button')).toHaveText(['inputs.topic', 'nodes.input.output']);
  await chips.getByRole('button', { name: 'inputs.topic' }).click();
  await expect(draftField).toHaveText('{{inputs.topic}}About {{inputs.topic}}');
});

test('deep in a long chain, the inspector shows the nearest nodes as chips and the rest on asking', async ({
  page,
  served,
}) => {
  // n38 has 38 nodes upstream, each a chip: the 12 nearest show, the 26 others behind one button.
  await openFlow(page, served, generatedFlow(40, 'deep'));
  await page.getByTestId('rf__node-n38').click();
  const chips = page.getByRole('group', { name: 'Insert a reference' });
  const nearest = Array.from({ length: 12 }, (_, i) => `nodes.n${26 + i}.output`);
  await expect(chips.locator('.chip')).toHaveText(nearest);
  await chips.getByRole('button', { name: '26 more upstream…' }).click();
  await expect(chips.locator('.chip')).toHaveText(Array.from({ length: 38 }, (_, i) => `nodes.n${i}.output`));
  await expect(chips.getByRole('button', { name: /more upstream/ })).toHaveCount(0);
  // A chip from behind the button inserts like any other; completion after {{ offered them all along.
  const field = page.locator('.inspector .cm-content').first();
  await field.click();
  await page.keyboard.press('ControlOrMeta+End');
  await chips.getByRole('button', { name: 'nodes.n0.output', exact: true }).click();
  await expect(field).toHaveText('Step 38: {{nodes.n37.output}}{{nodes.n0.output}}');

  // Another node starts with the nearest again.
  await page.getByTestId('rf__node-n30').click();
  await expect(chips.locator('.chip')).toHaveText(Array.from({ length: 12 }, (_, i) => `nodes.n${18 + i}.output`));
});

test("parameters are added and edited from the Input node's inspector (issue 17, point 3)", async ({
  page,
  served,
}) => {
  await openFlow(page, served, chain);
  await page.getByTestId('rf__node-input').click();
  const parameters = page.locator('.inspector').getByRole('group', { name: 'Parameters' });
  await expect(parameters.getByLabel('Parameter 1 name')).toHaveValue('topic');
  await parameters.getByRole('button', { name: 'Add parameter' }).click();
  await parameters.getByLabel('Parameter 2 name').fill('tone');
  // An enum without values cannot be saved yet: it stays on screen and says so, until values are typed.
  await parameters.getByLabel('Parameter 2 type').selectOption('enum');
  await expect(parameters.getByRole('alert')).toContainText(
    'Not saved yet: enum parameter "tone" lists no allowed values',
  );
  // Another node selected and back: the parameter being set up is still there, with its reason.
  await page.getByTestId('rf__node-result').click();
  await page.getByTestId('rf__node-input').click();
  await expect(parameters.getByLabel('Parameter 2 name')).toHaveValue('tone');
  await expect(parameters.getByRole('alert')).toContainText('enum parameter "tone" lists no allowed values');
  await parameters.getByLabel('Parameter 2 values').pressSequentially('plain, warm');
  await expect(parameters.getByLabel('Parameter 2 values')).toHaveValue('plain, warm');
  await expect(parameters.getByRole('alert')).toHaveCount(0);
  // The node on the canvas lists what it passes on.
  await expect(page.getByTestId('rf__node-input')).toContainText('topic, tone');
  await expectSaved(page);
  const stored = storedFlow(served.db, 'chain').parameters;
  expect(stored.map((p) => [p.name, p.type, p.enum])).toEqual([
    ['topic', 'string', undefined],
    ['tone', 'enum', ['plain', 'warm']],
  ]);
});

test('the Run panel shows the result as an MCP client receives it, and steps by their labels (issue 16, point 3 in part)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, chain);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByLabel(/^topic/).fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'What an MCP client receives' });
  await expect(result).toContainText('content[0] · text');
  await expect(result.locator('pre')).toHaveText(['Polish: About otters']);
  // Not Flowbench's own record of it.
  await expect(page.getByTestId('run-result')).not.toContainText('"kind"');
  await expect(page.locator('.steps .step-name')).toHaveText(['input', 'Draft draft', 'Polish polish', 'result']);
});
