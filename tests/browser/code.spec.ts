import { buildFlow, input, output } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

test('a code node runs the JavaScript typed in its editor on the values it names, its console.log lines kept, and says a throw with its line', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'shape',
      parameters: [{ name: 'words', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        {
          id: 'count',
          type: 'code',
          position: { x: 300, y: 100 },
          config: { values: [{ name: 'words', value: '{{inputs.words}}' }], code: 'return values;' },
        },
        { ...output('{{nodes.count.output}}'), position: { x: 600, y: 100 } },
      ],
      edges: ['input>count', 'count>result'],
    }),
    name: 'Shape',
  });
  await expect(page.getByRole('button', { name: 'Code', exact: true })).toBeVisible();
  const card = page.getByTestId('rf__node-count');
  await expect(card).toContainText('return values;');
  await card.click();
  const code = page.getByTestId('template-code').locator('.cm-content');
  await expect(code).toHaveText('return values;');
  await code.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(
    'const list = values.words.split(" ");\nreturn { count: list.length, longest: list.sort((a, b) => b.length - a.length)[0] };',
  );
  // JavaScript's highlighting: keywords are marked as such.
  await expect(page.getByTestId('template-code').locator('.cm-line span').first()).toHaveText('const');
  await expectSaved(page);
  expect(storedFlow(served.db, 'shape').nodes.find((n) => n.id === 'count')?.config.code).toContain('list.length');

  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-words').fill('a quick brown fox');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  await expect(page.getByLabel('What an MCP client receives')).toContainText('"longest":"quick"');

  await card.click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await code.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('console.log("words:", values.words);\nthrow new Error("no " + values.words);');
  await expectSaved(page);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/failed/i, { timeout: 15_000 });
  await expect(page.getByText('CODE_ERROR').first()).toBeVisible();
  await expect(page.getByText('node "count" (line 2): Error: no a quick brown fox').first()).toBeVisible();
  // What it logged before the throw is in its step, to see why: a console of its own, apart from the values it read.
  const details = page.getByLabel('Step details');
  await expect(details.getByLabel('Console', { exact: true })).toHaveText('words: a quick brown fox');
  await expect(details.locator('.step-block', { hasText: 'Resolved input' })).toContainText('a quick brown fox');
  await expect(details.locator('.step-block', { hasText: 'Resolved input' })).not.toContainText('console');
});

test('a step whose output is a list of 100,000 items shows at once, its first 100 and a button for more, and its text clipped until asked for', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'big',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        {
          id: 'make',
          type: 'code',
          position: { x: 300, y: 100 },
          config: {
            values: [],
            code: "return Array.from({ length: 100000 }, (_, i) => ({ id: i, name: 'item ' + i, tags: ['a', 'b'] }));",
          },
        },
        { ...output('{{nodes.make.output}}'), position: { x: 600, y: 100 } },
      ],
      edges: ['input>make', 'make>result'],
    }),
    name: 'Big list',
  });
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 30_000 });
  // The client's text (about 4 MB) is clipped: the whole of it is there when asked for.
  const client = page.getByLabel('What an MCP client receives');
  await expect(client.locator('pre')).toHaveText(/^\[\{"id":0,.*…$/s);
  await expect(client.getByRole('button', { name: /^Show all [\d,]+ characters$/ })).toBeVisible();

  // Drawing every item froze the editor for longer than this click waits (15 s).
  await page.getByTestId('rf__node-make').click();
  const shown = page.getByLabel('Step details').locator('.step-block', { hasText: 'Output' });
  await expect(shown.locator('summary').first()).toHaveText('[100000]');
  await expect(shown.getByText('name: "item 99"')).toBeAttached();
  await expect(shown.getByText('name: "item 100"', { exact: true })).toHaveCount(0);
  await shown.getByRole('button', { name: 'Show 900 more of 100,000' }).click();
  await expect(shown.getByText('name: "item 999"')).toBeAttached();
  await expect(shown.getByRole('button', { name: 'Show 9,000 more of 100,000' })).toBeVisible();
});

test("what was shown more of in one node's output does not carry over to the next node's", async ({ page, served }) => {
  const list = (label: string) => `return Array.from({ length: 200 }, (_, i) => ({ ${label}: i }));`;
  await openFlow(page, served, {
    ...buildFlow({
      id: 'two-lists',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'first', type: 'code', position: { x: 300, y: 0 }, config: { values: [], code: list('a') } },
        { id: 'second', type: 'code', position: { x: 300, y: 250 }, config: { values: [], code: list('b') } },
        { ...output('{{nodes.first.output}} {{nodes.second.output}}'), position: { x: 650, y: 100 } },
      ],
      edges: ['input>first', 'input>second', 'first>result', 'second>result'],
    }),
    name: 'Two lists',
  });
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 30_000 });
  const shown = page.getByLabel('Step details').locator('.step-block', { hasText: 'Output' });
  await page.getByTestId('rf__node-first').click();
  await shown.getByRole('button', { name: 'Show 100 more of 200' }).click();
  await expect(shown.getByText('a: 199')).toBeAttached();
  await page.getByTestId('rf__node-second').click();
  await expect(shown.getByText('b: 99', { exact: true })).toBeAttached();
  await expect(shown.getByText('b: 100', { exact: true })).toHaveCount(0);
  await expect(shown.getByRole('button', { name: 'Show 100 more of 200' })).toBeVisible();
});
