import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { startAnthropicServer } from '../helpers/anthropic-server';
import { expect, expectSaved, openFlow, storedFlow, test, withDatabase, zoomToDetail } from './fixtures';

/** Two model calls in a row, laid out side by side: the second reuses what the first wrote. */
const twoCalls = {
  ...buildFlow({
    id: 'two-calls',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('summarise', 'Summarise: {{inputs.text}}'), label: 'Summarise', position: { x: 320, y: 100 } },
      { ...llm('title', 'Title for: {{nodes.summarise.output}}'), label: 'Title', position: { x: 640, y: 100 } },
      { ...output('{{nodes.title.output}}'), position: { x: 960, y: 100 } },
    ],
    edges: ['input>summarise', 'summarise>title', 'title>result'],
  }),
  name: 'Two calls',
  // Described, so publishing asks nothing first (see publish warnings).
  tool: { name: 'two_calls', description: 'Summarises a text, then titles the summary.' },
};

test('run from here: only the selected node and what depends on it call the model again (issue 16, point 5)', async ({
  page,
  served,
  localModel,
}) => {
  let summaries = 0;
  const model = await localModel((request) => {
    const prompt = JSON.stringify(request.body.messages?.at(-1)?.content ?? '').slice(1, -1);
    if (prompt.startsWith('Title for:')) return { content: `Title of (${prompt.slice('Title for: '.length)})` };
    return { content: `summary ${++summaries}` };
  });
  await openFlow(page, served, twoCalls);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('Otters hold hands.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre');
  await expect(result).toHaveText(['Title of (summary 1)']);
  expect(model.requests).toHaveLength(2);

  await expect(page.locator('.run-from-hint')).toBeVisible();
  await page.locator('.react-flow__node[data-id="title"]').click();
  await page.getByRole('button', { name: 'Run from “Title”' }).click();
  await expect(page.getByTestId('run-reuse')).toContainText('Run from Title, reusing 2 outputs of run');
  await expect(result).toHaveText(['Title of (summary 1)']);
  // The server's request log: the summary was not asked for again, the title was.
  expect(model.requests).toHaveLength(3);
  expect(model.requests[2]?.body.messages?.at(-1)?.content).toBe('Title for: summary 1');
  await expect(page.locator('.step', { hasText: 'Summarise' }).locator('.step-reused')).toHaveText('reused');
  await expect(page.locator('.step', { hasText: 'Title' }).locator('.step-reused')).toHaveCount(0);
});

test('test cases: add from the Run inputs, a bad pattern stays unsaved with its reason, Run all shows pass and fail, publishing is gated (issue 16, point 6)', async ({
  page,
  served,
  localModel,
}) => {
  await localModel(() => ({ content: 'Otters hold hands.' }));
  await openFlow(page, served, twoCalls);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('Otters.');
  await page.getByRole('tab', { name: 'Tests' }).click();

  // A case that passes: it starts from the Run form's inputs.
  await page.getByRole('button', { name: 'Add test case' }).click();
  const first = page.getByRole('group', { name: 'Test case Case 1' });
  await expect(first.locator('#test-case_1-input-text')).toHaveValue('Otters.');
  await first.getByLabel('Add an expectation').selectOption('contains');
  await first.getByLabel('Expected text').fill('hold hands');

  // One that fails on purpose.
  await page.getByRole('button', { name: 'Add test case' }).click();
  const second = page.getByRole('group', { name: 'Test case Case 2' });
  await second.locator('#test-case_2-name').fill('fails on purpose');
  await page
    .getByRole('group', { name: 'Test case fails on purpose' })
    .getByLabel('Add an expectation')
    .selectOption('regex');
  const pattern = page.getByRole('group', { name: 'Test case fails on purpose' }).getByLabel('Pattern');
  await pattern.fill('(unclosed');
  // Said at the field, and not saved: the database keeps the last valid cases.
  await expect(page.getByRole('group', { name: 'Test case fails on purpose' }).locator('.error')).toContainText(
    'is not a valid regular expression',
  );
  await expect(page.getByRole('button', { name: 'Run all' })).toBeDisabled();
  // Another tab and back: what was typed is still there, with its reason (nothing typed is dropped).
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.getByRole('tab', { name: 'Tests' }).click();
  await expect(pattern).toHaveValue('(unclosed');
  await expect(page.getByRole('group', { name: 'Test case fails on purpose' }).locator('.error')).toContainText(
    'is not a valid regular expression',
  );
  await expectSaved(page);
  expect(storedFlow(served.db, 'two-calls').tests.map((t) => t.name)).toEqual(['Case 1', 'fails on purpose']);
  expect(storedFlow(served.db, 'two-calls').tests[1]?.expectations).toEqual([]);
  await pattern.fill('^Nothing like this$');
  await expectSaved(page);
  expect(storedFlow(served.db, 'two-calls').tests[1]?.expectations).toEqual([
    { kind: 'regex', pattern: '^Nothing like this$' },
  ]);

  await page.getByRole('button', { name: 'Run all' }).click();
  const results = page.getByRole('region', { name: 'Test results' });
  await expect(results.locator('strong')).toHaveText('1 passed, 1 failed');
  await expect(results.locator('tr.test-passed td').first()).toHaveText('Case 1');
  await expect(results.locator('tr.test-failed')).toContainText(
    'matches /^Nothing like this$/: got "Otters hold hands."',
  );

  // Gated publishing names the failing case, above the canvas until closed.
  await page.getByLabel('Publish only when its test cases pass').check();
  await expectSaved(page);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('dialog', { name: 'Publish version 1' }).getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('alert', { name: 'Refused' })).toContainText(
    'not published: 1 of 2 test cases failed: "fails on purpose"',
  );
  withDatabase(served.db, (services) => expect(services.versions.list('two-calls')).toEqual([]));
});

test("a test case's inputs are typed as in the Run form: a text of several lines as it is, a number that is not one kept on screen and not saved", async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...twoCalls,
    ...buildFlow({
      id: 'typed-cases',
      parameters: [
        { name: 'text', type: 'string' },
        { name: 'sentences', type: 'integer', required: false },
      ],
      nodes: twoCalls.nodes,
      edges: ['input>summarise', 'summarise>title', 'title>result'],
    }),
    // A case from before a parameter was removed: what it still gives is named, to remove.
    tests: [{ id: 'old', name: 'Old', inputs: { text: 'x', mood: 'calm' }, expectations: [] }],
  });
  await page.getByRole('tab', { name: 'Tests' }).click();
  const old = page.getByRole('group', { name: 'Test case Old' });
  await expect(old).toContainText('Also gives mood, which this flow has no parameter for.');
  await old.getByRole('button', { name: 'Remove it' }).click();
  await expectSaved(page);
  expect(storedFlow(served.db, 'typed-cases').tests[0]?.inputs).toEqual({ text: 'x' });
  await old.getByRole('button', { name: 'Delete case' }).click();
  await expectSaved(page);
  await page.getByRole('button', { name: 'Add test case' }).click();
  const inputs = page.getByRole('group', { name: 'Test case Case 1' });
  const text = inputs.locator('#test-case_1-input-text');
  await text.fill('Hello,\nI was charged twice.\nPlease help.');
  await expectSaved(page);
  const stored = () => storedFlow(served.db, 'typed-cases').tests[0]?.inputs;
  expect(stored()).toEqual({ text: 'Hello,\nI was charged twice.\nPlease help.' });

  const sentences = inputs.locator('#test-case_1-input-sentences');
  await sentences.fill('two');
  await expect(inputs).toContainText('expected an integer');
  await expectSaved(page);
  expect(stored()).toEqual({ text: 'Hello,\nI was charged twice.\nPlease help.' });
  // Another field typed meanwhile leaves it as typed.
  await text.fill('Hello again');
  await expectSaved(page);
  await expect(sentences).toHaveValue('two');
  // Another tab and back: still as typed, still said.
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('tab', { name: 'Tests' }).click();
  await expect(sentences).toHaveValue('two');
  await expect(inputs).toContainText('expected an integer');
  await sentences.fill('2');
  await expectSaved(page);
  expect(stored()).toEqual({ text: 'Hello again', sentences: 2 });
});

test("a step shows what the model's provider did not honour, in the provider's words; its card says it has a warning", async ({
  page,
  served,
}) => {
  // Claude's API, here a local server of it, under a model name the AI SDK does not know: it
  // guesses the model's output limit and says so.
  const claude = await startAnthropicServer(() => ({ content: 'Otters.' }));
  try {
    withDatabase(served.db, (services) =>
      services.providers.set(
        { name: 'claude', kind: 'anthropic', baseUrl: claude.url, apiKey: 'sk-ant-test', defaultModel: 'claude-test' },
        true,
      ),
    );
    await openFlow(page, served, twoCalls);
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.locator('#run-input-text').fill('Otters hold hands.');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    // Close up, the card says there is something to read; the step details say what.
    await zoomToDetail(page, 'full');
    const card = page.locator('.react-flow__node[data-id="summarise"]');
    await expect(card.locator('.fb-step-line')).toHaveText(/^\d+ ms · (.+ · )?1 provider warning$/);
    await card.click();
    await expect(page.getByLabel('Step details').getByRole('list', { name: 'What the provider said' })).toHaveText(
      /^The provider says: maxOutputTokens is used in a compatibility mode/,
    );
  } finally {
    await claude.close();
  }
});
