import { llmFlow } from '../helpers/flows';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

/** topics (a list) → describe (an LLM whose prompt reads {{item}}) → result. */
const topicsFlow = llmFlow(
  { id: 'topics', name: 'Topics', parameter: { name: 'topics', type: 'array' } },
  { id: 'describe', prompt: 'Describe these in a line.' },
);

test('Run for each item (Rivet’s split run, Dify’s iteration): a node runs once per item of a list and gives the list of answers', async ({
  page,
  served,
  localModel,
}) => {
  // The model cannot answer about bees: that item fails, the others go on.
  await localModel((request) => {
    const topic = String(request.body.messages?.at(-1)?.content).split(' ')[1];
    return topic === 'bees' ? { status: 400 } : { content: `About ${topic}` };
  });
  await openFlow(page, served, topicsFlow);
  const describe = page.getByTestId('rf__node-describe');
  await describe.click();
  const inspector = page.getByLabel('Inspector');
  // {{item}} in a node that runs once is said at once.
  await page.getByTestId('template-prompt').locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Describe {{item}} in a line.');
  await expect(inspector.locator('.node-problems')).toContainText(
    '{{item}} — node "describe" does not run for each item of a list',
  );
  await inspector.getByRole('checkbox', { name: /Run for each item of a list/ }).check();
  await expectSaved(page);
  // The list starts as the flow's list parameter.
  expect(storedFlow(served.db, 'topics').nodes.find((n) => n.id === 'describe')?.forEach).toEqual({
    items: '{{inputs.topics}}',
  });
  await expect(inspector.locator('.node-problems')).toHaveCount(0);
  await expect(describe.locator('.fb-node-type')).toContainText('LLM · for each');
  await inspector.locator('#node-for-each-concurrency').fill('1');
  await expectSaved(page);
  await inspector.locator('#node-for-each-on-error').selectOption('continue');
  await expectSaved(page);
  expect(storedFlow(served.db, 'topics').nodes.find((n) => n.id === 'describe')?.forEach).toEqual({
    items: '{{inputs.topics}}',
    concurrency: 1,
    onItemError: 'continue',
  });

  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-topics').fill('["otters", "bees", "moles"]');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  await expect(describe).toContainText('["About otters",null,"About moles"]');
  await describe.click();
  await expect(page.getByLabel('Step details')).toContainText('failedItems');

  // Unticked, the node runs once again, and {{item}} is said again.
  await describe.click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await inspector.getByRole('checkbox', { name: /Run for each item of a list/ }).uncheck();
  await expectSaved(page);
  expect(storedFlow(served.db, 'topics').nodes.find((n) => n.id === 'describe')?.forEach).toBeUndefined();
  await expect(inspector.locator('.node-problems')).toContainText('does not run for each item of a list');
});
