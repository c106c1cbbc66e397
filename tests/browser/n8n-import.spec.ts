import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { n8nChatTrigger } from '../helpers/n8n';
import { expect, expectSaved, laidOutEcho, openFlow, storedFlow, test } from './fixtures';

/** The edges on the canvas: each its own element, or, zoomed out to labels, the paths FarEdges draws for them all. */
const drawnEdges = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelectorAll('.react-flow__edge').length +
      Number(document.querySelector('.fb-far-edges')?.getAttribute('data-edges') ?? 0),
  );

test('an n8n workflow imported from the home screen opens as its nodes, connections and sticky note, what changed listed in Problems', async ({
  page,
  served,
}) => {
  await page.goto(served.editorUrl);
  await page.getByTestId('import-file').setInputFiles({
    name: 'Ticket triage.json',
    mimeType: 'application/json',
    buffer: readFileSync('tests/fixtures/formats/n8n-triage.json'),
  });
  const row = page.locator('[data-testid^="flow-row-"]');
  await expect(row).toContainText('Ticket triage');
  await row.getByRole('link').click();

  // Seven cards (the No-op left out, an output added), the If's two branches, the note over the start.
  await expect(page.locator('.react-flow__node:not(.react-flow__node-note)')).toHaveCount(7);
  await expect.poll(() => drawnEdges(page)).toBe(6);
  await expect(page.getByTestId('note-body')).toContainText('Billing tickets go to the billing queue.');
  const condition = page.getByTestId('rf__node-Is_billing');
  await expect(condition).toContainText('Is billing?');
  await page.screenshot({ path: test.info().outputPath('n8n-imported.png') });

  await page.getByRole('tab', { name: /^Problems/ }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems).toContainText(`n8n's credential "OpenAi account" is not`);
  await expect(problems).toContainText('the flow returns what "File with billing" gives');
});

/** What n8n's Ctrl+C puts on the clipboard: the copied nodes as a workflow's JSON. */
const copiedInN8n = JSON.stringify({
  nodes: [
    { ...n8nChatTrigger(), name: 'When chat message received' },
    {
      name: 'Answer',
      type: '@n8n/n8n-nodes-langchain.chainLlm',
      typeVersion: 1.5,
      position: [220, 0],
      parameters: {},
    },
    {
      name: 'Model',
      type: '@n8n/n8n-nodes-langchain.lmChatOllama',
      typeVersion: 1,
      position: [200, 200],
      parameters: { model: 'llama3.2' },
    },
    {
      name: 'Shape',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [440, 0],
      parameters: { assignments: { assignments: [{ name: 'reply', value: '={{ $json.text }}', type: 'string' }] } },
    },
    {
      name: 'File it',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      position: [660, 0],
      parameters: { url: 'https://api.example.test/tickets' },
    },
  ],
  connections: {
    'When chat message received': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
    Model: { ai_languageModel: [[{ node: 'Answer', type: 'ai_languageModel', index: 0 }]] },
    Answer: { main: [[{ node: 'Shape', type: 'main', index: 0 }]] },
    Shape: { main: [[{ node: 'File it', type: 'main', index: 0 }]] },
  },
  meta: { instanceId: 'abc' },
});

test("nodes copied in n8n paste onto the canvas: the trigger is the flow's input, its input joins the flow's; one Undo takes them back", async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'pasted' }));
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  await page.locator('.react-flow__pane').click({ position: { x: 30, y: 30 } });
  // As the browser hands a Ctrl+V on the canvas to the page: a paste event with the clipboard's text.
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document
      .querySelector('.react-flow__pane')
      ?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, copiedInN8n);
  await expect(page.locator('.toast')).toContainText('Pasted 3 nodes from n8n; 2 things to review in Problems');
  await expect(page.locator('.react-flow__node')).toHaveCount(6);
  await expectSaved(page);

  const stored = storedFlow(served.db, 'pasted');
  const llm = stored.nodes.find((n) => n.type === 'llm')!;
  const code = stored.nodes.find((n) => n.type === 'code')!;
  expect([llm.label, llm.config.model, llm.config.prompt]).toEqual(['Answer', 'llama3.2', '{{inputs.chatInput}}']);
  expect(code.config.values).toEqual([{ name: 'reply', value: `{{nodes.${llm.id}.output}}` }]);
  expect(stored.edges).toContainEqual(expect.objectContaining({ source: 'input', target: llm.id }));
  expect(stored.edges).toContainEqual(expect.objectContaining({ source: llm.id, target: code.id }));
  expect(stored.parameters.map((p) => p.name)).toEqual(['message', 'count', 'mood', 'chatInput']);
  // Right of the flow's nodes, not over them.
  const own = new Set(['input', 'say', 'result']);
  const xs = (mine: boolean) => stored.nodes.filter((n) => own.has(n.id) === mine).map((n) => n.position.x);
  expect(Math.min(...xs(false))).toBeGreaterThan(Math.max(...xs(true)));

  await page.getByRole('tab', { name: /^Problems/ }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems).toContainText('the model llama3.2 is carried over');
  // As an imported file's: the URL it calls is said, to dismiss once trusted.
  await expect(problems).toContainText(
    "calls GET https://api.example.test/tickets when it runs, as the nodes' author chose",
  );

  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  const undone = storedFlow(served.db, 'pasted');
  expect(undone.nodes.map((n) => n.id)).toEqual(['input', 'say', 'result']);
  expect(undone.parameters.map((p) => p.name)).toEqual(['message', 'count', 'mood']);
});

test("the canvas menu's Paste reads the system clipboard too: n8n's nodes there are pasted", async ({
  page,
  served,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openFlow(page, served, laidOutEcho({ id: 'menu-pasted' }));
  await page.evaluate((text) => navigator.clipboard.writeText(text), copiedInN8n);
  const pane = page.locator('.react-flow__pane');
  await pane.click({ button: 'right', position: { x: 40, y: 40 } });
  await page
    .getByRole('dialog', { name: 'Canvas' })
    .getByRole('menuitem', { name: /^Paste/ })
    .click();
  await expect(page.locator('.toast')).toContainText('Pasted 3 nodes from n8n');
  await expectSaved(page);
  expect(storedFlow(served.db, 'menu-pasted').nodes.map((n) => n.type)).toEqual([
    'input',
    'template',
    'output',
    'llm',
    'code',
    'http',
  ]);
});
