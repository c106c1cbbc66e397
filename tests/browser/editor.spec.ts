import type { Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import type { FlowInput } from '../../core/model/flow';
import { readFileSync } from 'node:fs';
import { importFlowText } from '../../core/services/import-service';
import { nodeRegistry } from '../../core/nodes/registry';
import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { runCli } from '../helpers/cli';
import { generatedFlow } from '../helpers/flows';
import {
  connect,
  expect,
  expectSaved,
  holdFlowReads,
  laidOutEcho,
  openFlow,
  storedFlow,
  test,
  withDatabase,
  type Served,
} from './fixtures';

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

/**
 * The flow `shared` open in the first window and in a second: a browser
 * context of its own, as another editor window or another person's tab.
 * The second window's later reads of the flow are held back until
 * `release` (holdFlowReads): it writes before it has seen the first's
 * edits, as a window that is slow to hear of them does.
 */
async function twoWindows(
  page: Page,
  browser: Browser,
  served: Served,
  flow: Partial<FlowInput> = {},
  options: BrowserContextOptions = {},
) {
  const shared = laidOutEcho({ id: 'shared', name: 'Shared', ...flow });
  await openFlow(page, served, shared);
  const other = await browser.newContext(options);
  const second = await other.newPage();
  await second.goto(`${served.editorUrl}#/flow/shared`);
  await expect(second.locator('.fb-node')).toHaveCount(shared.nodes.length);
  const release = await holdFlowReads(second);
  return { other, second, release };
}

/** Drags a card (and the cards selected with it) 148 px down by its header, as a person does. */
async function dragCardDown(window: Page, id: string): Promise<void> {
  const card = await window.getByTestId(`rf__node-${id}`).boundingBox();
  if (!card) throw new Error(`the card ${id} is not on screen`);
  await window.mouse.move(card.x + card.width / 2, card.y + 12);
  await window.mouse.down();
  await window.mouse.move(card.x + card.width / 2, card.y + 160, { steps: 8 });
  await window.mouse.up();
}

/** The window says `told` in a toast, shows no refusal, and has saved all it has. */
async function expectToldNotRefused(window: Page, told: string): Promise<void> {
  await expect(window.getByText(told)).toBeVisible();
  await expect(window.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  await expectSaved(window);
}

/** Types at the end of a template node's text, as a person does: its card, then its editor. */
async function typeInTemplate(window: Page, nodeId: string, words: string): Promise<void> {
  await window.getByTestId(`rf__node-${nodeId}`).click();
  await window.getByTestId('template-template').locator('.cm-content').click();
  await window.keyboard.press('Control+End');
  await window.keyboard.type(words);
}

async function dropFromPalette(page: Page, type: string, x: number, y: number): Promise<void> {
  await page.getByTestId(`palette-${type}`).dragTo(page.locator('.react-flow__pane'), { targetPosition: { x, y } });
}

const nodes = (page: Page): Locator => page.locator('.react-flow__node');

/** Creates a flow from the home screen, as a person does: New flow, its name, Enter. */
async function newFlow(page: Page, served: Served, name: string): Promise<void> {
  await page.goto(served.editorUrl);
  await page.getByRole('button', { name: 'New flow' }).click();
  await page.getByRole('dialog', { name: 'New flow' }).getByLabel('Name').fill(name);
  await page.keyboard.press('Enter');
}

test('build a flow on the canvas: palette, connections, template autocomplete, problems, autosave, undo and delete', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Greeting flow');
  await expect(page.locator('.flow-title')).toHaveText('Greeting flow');

  // A parameter to reference, from the flow settings (shown when nothing is selected).
  await page.getByRole('button', { name: 'Add parameter' }).click();
  await page.getByLabel('Parameter 1 name').fill('topic');

  await dropFromPalette(page, 'input', 150, 300);
  await dropFromPalette(page, 'template', 450, 300);
  await dropFromPalette(page, 'output', 750, 300);
  await expect(nodes(page)).toHaveCount(3);
  await expect(page.getByTestId('rf__node-input_1')).toContainText('topic');

  // A node nothing connects to the input never runs: its card says so in amber, not as an error…
  const template1 = page.getByTestId('rf__node-template_1');
  await expect(template1.locator('.fb-warnings')).toHaveText('1');
  await expect(template1.locator('.fb-warnings')).toHaveAttribute('title', '1 warning(s): see Problems');
  await expect(template1.getByLabel('1 warning(s)')).toBeVisible();
  await expect(template1.locator('.fb-problems')).toHaveCount(0);
  await expect(template1).toHaveClass(/has-warnings/);
  await connect(page, 'input_1', 'template_1');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  // …until it is connected.
  await expect(template1.locator('.fb-warnings')).toHaveCount(0);
  await expect(template1).not.toHaveClass(/has-warnings/);

  // The template: `{{` offers the references this node can use.
  await page.getByTestId('rf__node-template_1').click();
  const template = page.getByTestId('template-template').locator('.cm-content');
  await template.click();
  await page.keyboard.type('Tell me about {{');
  const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'inputs.topic' });
  await expect(option).toBeVisible();
  // CodeMirror ignores Enter for 75 ms after the list opens, so a fast typist does not pick by accident.
  await page.waitForTimeout(200);
  await page.keyboard.press('Enter');
  await expect(template).toHaveText('Tell me about {{inputs.topic}}');
  await shot(page, 'template-autocomplete');

  // The output refers to the template before they are connected: a problem appears…
  await page.getByTestId('rf__node-output_1').click();
  const returned = page.getByTestId('template-returnValues.0.text').locator('.cm-content');
  await returned.click();
  await page.keyboard.type('{{nodes.template_1.output}}');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('rf__node-output_1').locator('.fb-problems')).toHaveText('1');
  await page.getByRole('tab', { name: /Problems/ }).click();
  await expect(page.getByRole('list', { name: 'Problems' })).toContainText(
    'node "template_1" is not upstream of "output_1"',
  );
  await shot(page, 'problem-shown');
  // …and clears once they are.
  await connect(page, 'template_1', 'output_1');
  await expect(page.getByTestId('rf__node-output_1').locator('.fb-problems')).toHaveCount(0);
  await expect(page.getByText('No problems.')).toBeVisible();
  await expectSaved(page);

  // Everything survives a reload.
  await page.reload();
  await expect(nodes(page)).toHaveCount(3);
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await page.getByTestId('rf__node-template_1').click();
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveText(
    'Tell me about {{inputs.topic}}',
  );
  await shot(page, 'after-reload');

  // Delete, undo, redo.
  await page.getByTestId('rf__node-output_1').click();
  await page.locator('.react-flow__pane').press('Delete');
  await expect(nodes(page)).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(nodes(page)).toHaveCount(3);
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await page.keyboard.press('Control+Shift+z');
  await expect(nodes(page)).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(nodes(page)).toHaveCount(3);
  await expectSaved(page);
  await page.reload();
  await expect(nodes(page)).toHaveCount(3);
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);

  // Copy and paste duplicates nodes with new ids.
  await page.getByTestId('rf__node-template_1').click();
  await page.locator('.react-flow__pane').press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(page.getByTestId('rf__node-template_2')).toBeVisible();
  await shot(page, 'pasted');

  // Back home (a link to the flows list, so it opens in a new tab too): the flow is listed, and deleting it asks first.
  await expect(page.getByRole('link', { name: '← Flows' })).toHaveAttribute('href', '#/');
  await page.getByRole('link', { name: '← Flows' }).click();
  const row = page.getByTestId('flow-row-greeting_flow');
  await expect(row).toContainText('4');
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Delete “Greeting flow”?' }).click();
  await expect(page.getByText('No flows yet.')).toBeVisible();
});

test('two windows editing one flow: an edit from the other window shows up', async ({ page, context, served }) => {
  await openFlow(page, served, { ...generatedFlow(5, 'shared'), name: 'Shared flow' });
  await expect(nodes(page)).toHaveCount(5);
  const other = await context.newPage();
  await other.goto(`${served.editorUrl}#/flow/shared`);
  await other.getByTestId('rf__node-n1').click();
  await other.getByLabel('Label').fill('Renamed elsewhere');
  await expectSaved(other);
  await expect(page.getByTestId('rf__node-n1')).toContainText('Renamed elsewhere');
});

test('a flow read again as another is opened stays out of it: the editor shows the flow its link names', async ({
  page,
  served,
}) => {
  await openFlow(page, served, { ...generatedFlow(3, 'first'), name: 'First flow' });
  await expect(page.locator('.flow-title')).toHaveText('First flow');
  // The first flow's next read is held: the database changing beside the editor (another process
  // saving a flow) has the editor read its open flow again.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldRead: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (heldRead = resolve));
  await page.route('**/api/flows/get', async (route) => {
    if ((JSON.parse(route.request().postData() ?? '{}') as { id?: string }).id !== 'first') return route.continue();
    heldRead();
    await released;
    await route.continue();
  });
  // The second flow is saved (the change that has the first read again), and its link is followed
  // while that read is under way.
  withDatabase(served.db, (services) => services.flows.create({ ...generatedFlow(5, 'second'), name: 'Second flow' }));
  await held;
  await page.goto(`${served.editorUrl}#/flow/second`);
  await expect(page.locator('.flow-title')).toHaveText('Second flow');
  await expect(nodes(page)).toHaveCount(5);
  // The first flow's reply comes last: it must not take the second's place under its id.
  const reply = page.waitForResponse((response) => response.url().endsWith('/api/flows/get'));
  release();
  await reply;
  await page.waitForTimeout(300);
  await expect(page.locator('.flow-title')).toHaveText('Second flow');
  await expect(nodes(page)).toHaveCount(5);
});

test("runs another process stores reach the Run tab's list, and the open flow is not read again for them", async ({
  page,
  served,
}) => {
  const flow: FlowInput = {
    ...buildFlow({
      id: 'watched',
      nodes: [input(), template('say', 'said'), output('{{nodes.say.output}}')],
      edges: ['input>say', 'say>result'],
    }),
    name: 'Watched flow',
  };
  await openFlow(page, served, flow);
  await page.getByRole('tab', { name: 'Run' }).click();
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(0);
  // serve looks at the database file once a second. The first run's tick also takes in the flow
  // stored beside it above (which it may tell as a flow change), so reads are counted after it.
  expect((await runCli(['--db', served.db, 'run', 'watched'])).code).toBe(0);
  await expect(recent).toHaveCount(1);
  const flowReads: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/flows\/(get|list)$/.test(request.url())) flowReads.push(request.url());
  });
  expect((await runCli(['--db', served.db, 'run', 'watched'])).code).toBe(0);
  await expect(recent).toHaveCount(2);
  expect((await runCli(['--db', served.db, 'run', 'watched'])).code).toBe(0);
  await expect(recent).toHaveCount(3);
  await expect(recent.first()).toContainText('succeeded · cli');
  // Only runs changed: neither the flow list nor the open flow was read again (each read every second before).
  expect(flowReads).toEqual([]);
  // A node renamed by another process still reaches the editor: the open flow is read again.
  withDatabase(served.db, (services) =>
    services.flows.applyChanges('watched', { updateNodes: [{ id: 'say', label: 'Renamed elsewhere' }] }),
  );
  await expect(page.getByTestId('rf__node-say')).toContainText('Renamed elsewhere');
  expect(flowReads.length).toBeGreaterThan(0);
});

test('a stored run still loading when another flow is opened is not shown over that flow', async ({ page, served }) => {
  const saying = (id: string, name: string): FlowInput => ({
    ...buildFlow({
      id,
      nodes: [input(), template('say', `said by ${name}`), output('{{nodes.say.output}}')],
      edges: ['input>say', 'say>result'],
    }),
    name,
  });
  await openFlow(page, served, saying('first', 'First flow'));
  // A run of it from another process (the CLI), listed in the Run tab.
  expect((await runCli(['--db', served.db, 'run', 'first'])).code).toBe(0);
  await page.reload();
  await page.getByRole('tab', { name: 'Run' }).click();
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(1);
  // The run's read is held while the person follows a link to another flow.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/runs/get', async (route) => {
    await released;
    await route.continue();
  });
  await recent.first().click();
  withDatabase(served.db, (services) => services.flows.create(saying('second', 'Second flow')));
  await page.goto(`${served.editorUrl}#/flow/second`);
  await expect(page.locator('.flow-title')).toHaveText('Second flow');
  const reply = page.waitForResponse((response) => response.url().endsWith('/api/runs/get'));
  release();
  await reply;
  await page.waitForTimeout(300);
  // The second flow shows no run: the first flow's run is not laid over its canvas.
  await page.getByRole('tab', { name: 'Run' }).click();
  await expect(page.locator('.run-origin')).toHaveCount(0);
  await expect(page.getByText('said by First flow')).toHaveCount(0);
});

test('opens a 1,000-node flow', async ({ page, served }) => {
  withDatabase(served.db, (services) => services.flows.create(generatedFlow(1000, 'big')));
  const started = Date.now();
  await page.goto(`${served.editorUrl}#/flow/big`);
  await expect(page.locator('.flow-title')).toHaveText('Generated 1000');
  await expect(nodes(page).first()).toBeVisible();
  const elapsed = Date.now() - started;
  test.info().annotations.push({ type: 'open-1000-nodes-ms', description: String(elapsed) });
  await shot(page, 'thousand-nodes');
  // At rest the minimap is not drawn at all; pinned, it and the canvas both show the whole flow.
  await expect(page.locator('.react-flow__minimap')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show the map' }).click();
  await expect(page.locator('.react-flow__minimap-node')).toHaveCount(1000);
  await page.getByRole('button', { name: 'Hide the map' }).click();
  await expect(page.locator('.react-flow__minimap')).toHaveCount(0);
  // Zoomed out that far, nodes show their labels only; zoomed in, their details come back.
  await expect(page.getByTestId('rf__node-n1').locator('.fb-node-compact')).toHaveText('Step 1');
  await expect(page.locator('.fb-node-summary')).toHaveCount(0);
  for (let i = 0; i < 15 && (await page.locator('.fb-node-summary').count()) === 0; i++) {
    await page.locator('.react-flow__controls-zoomin').click();
    await page.waitForTimeout(250);
  }
  await expect(page.locator('.fb-node-summary').first()).toBeVisible();
  await shot(page, 'thousand-nodes-zoomed-in');
});

test('an imported flow shows what could not be carried over until it is dismissed or fixed', async ({
  page,
  served,
}) => {
  const { id } = await withDatabase(served.db, async (services) => {
    const report = await importFlowText(
      services,
      readFileSync('tests/fixtures/formats/flow-definition-workshop.json', 'utf8'),
      'workshop.json',
    );
    return report.flow;
  });
  await page.goto(`${served.editorUrl}#/flow/${id}`);
  await page.getByRole('tab', { name: /Problems/ }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems).toContainText('goes on failure to "refine_solution", which is not a step');
  await expect(problems).toContainText('AGENT_NEEDS_REVIEW node gather_requirements');
  await shot(page, 'import-problems');
  await problems
    .getByRole('listitem')
    .filter({ hasText: 'refine_solution' })
    .getByRole('button', { name: 'Dismiss' })
    .click();
  await expect(problems).not.toContainText('refine_solution');
  // An agent the import created is reviewed in the library, not dismissed here.
  await expect(problems).toContainText('AGENT_NEEDS_REVIEW node gather_requirements');
});

test('a card clicked, or a problem, while Tests or Problems is open shows that node in the Inspector; the Run tab stays open', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Tabs');
  await page.getByTestId('palette-template').click();
  // Not joined after the template (its prompt would be filled): the LLM keeps a problem to click.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  await page.getByTestId('palette-llm').click();
  await expectSaved(page);
  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
  const heading = page.locator('.inspector h2');

  await tab('Tests').click();
  await page.getByTestId('rf__node-template_1').click();
  await expect(tab('Inspector')).toHaveAttribute('aria-selected', 'true');
  await expect(heading).toHaveText('Template template_1');

  await tab('Problems').click();
  await page.getByRole('list', { name: 'Problems' }).getByRole('button', { name: /llm_1/ }).first().click();
  await expect(tab('Inspector')).toHaveAttribute('aria-selected', 'true');
  await expect(heading).toHaveText('LLM llm_1');

  await tab('Run').click();
  await page.getByTestId('rf__node-template_1').click();
  await expect(tab('Run')).toHaveAttribute('aria-selected', 'true');
});

test('a connection carries data: connecting into an empty prompt fills in the reference, and undo takes both back (issue 17, point 3)', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Connected');
  await dropFromPalette(page, 'template', 200, 300);
  await dropFromPalette(page, 'llm', 550, 300);
  await connect(page, 'template_1', 'llm_1');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await page.getByTestId('rf__node-llm_1').click();
  await expect(page.getByTestId('template-prompt').locator('.cm-content')).toHaveText('{{nodes.template_1.output}}');
  await shot(page, 'connection-fills-prompt');

  await page.locator('.react-flow__pane').press('Control+z');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  // The prompt is empty again (its summary no longer names the template).
  await expect(page.getByTestId('rf__node-llm_1')).not.toContainText('template_1');
});

/** Drags a connection off a node's port and lets it go on empty canvas, `dx`, `dy` away. */
async function dropConnection(page: Page, nodeId: string, port: string, dx: number, dy: number): Promise<void> {
  const box = await page.locator(`.react-flow__handle[data-nodeid="${nodeId}"][data-handleid="${port}"]`).boundingBox();
  if (!box) throw new Error(`no port ${port} on ${nodeId}`);
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 8 });
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 8 });
  await page.mouse.up();
}

test('a connection let go on empty canvas offers the node types to add there, joined to its port; one Undo takes both back', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'joined' }));
  const edges = page.locator('.react-flow__edge');
  await expect(edges).toHaveCount(2);
  // Off the template's output: the types that take an input, filtered by what is typed.
  await dropConnection(page, 'say', 'out', 60, 220);
  const menu = page.getByRole('dialog', { name: 'Add a node after this one' });
  await expect(menu.getByRole('button')).toContainText(['Template', 'LLM', 'Agent', 'Output']);
  await expect(menu.getByRole('button', { name: /^Input/ })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('join-menu-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('join-menu-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await menu.getByRole('textbox', { name: 'Node type' }).fill('llm');
  await expect(menu.getByRole('button')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expectSaved(page);
  const stored = storedFlow(served.db, 'joined');
  const added = stored.nodes.find((n) => n.type === 'llm');
  expect(added?.config.prompt).toBe('{{nodes.say.output}}');
  expect(stored.edges).toContainEqual(expect.objectContaining({ source: 'say', sourcePort: 'out', target: added?.id }));
  // Where it was let go, below the template, and chosen for editing.
  const say = stored.nodes.find((n) => n.id === 'say')!;
  expect(added!.position.y).toBeGreaterThan(say.position.y + 100);
  await expect(page.locator('.inspector h2')).toContainText(`LLM ${added?.id}`);

  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  expect(storedFlow(served.db, 'joined').nodes.map((n) => n.type)).not.toContain('llm');
  await expect(edges).toHaveCount(2);

  // Off the output's input: types with an output to feed it. Escape adds nothing.
  await dropConnection(page, 'result', 'in', -60, 220);
  const before = page.getByRole('dialog', { name: 'Add a node before this one' });
  await expect(before.getByRole('button', { name: /^Output/ })).toHaveCount(0);
  // The arrow keys walk from the filter field down the list and back.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(before.getByRole('button').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(before.getByRole('button').nth(0)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(before).toHaveCount(0);
  await expect(page.locator('.react-flow__node')).toHaveCount(3);

  // Let go over the side panel, off the canvas: nothing is offered, nothing added. (Counted in the
  // flow, not on screen: crossing the canvas's edge, the drag pans the view, as React Flow does.)
  await dropConnection(page, 'say', 'out', 500, 0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectSaved(page);
  expect(storedFlow(served.db, 'joined').nodes).toHaveLength(3);
});

test('a node added where a connection was let go at the canvas’s edge is brought into view whole', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'at-edge' }));
  const pane = (await page.locator('.react-flow').boundingBox())!;
  const port = (await page.locator('.react-flow__handle[data-nodeid="say"][data-handleid="out"]').boundingBox())!;
  // Let go 10 px above the canvas's bottom edge: the card would hang below it.
  await dropConnection(page, 'say', 'out', 40, pane.y + pane.height - 10 - (port.y + port.height / 2));
  await page
    .getByRole('dialog', { name: 'Add a node after this one' })
    .getByRole('button', { name: /^Template/ })
    .click();
  await expectSaved(page);
  const added = storedFlow(served.db, 'at-edge').nodes.find((n) => n.type === 'template' && n.id !== 'say')!;
  const card = page.getByTestId(`rf__node-${added.id}`);
  await expect
    .poll(async () => {
      const box = (await card.boundingBox())!;
      return box.y >= pane.y && box.y + box.height <= pane.y + pane.height;
    })
    .toBe(true);
});

test('N adds a node: after the selected one, joined to it, else in the middle of the view; a double-click on the canvas adds one there', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'keyed' }));
  await page.getByTestId('rf__node-say').click();
  await page.keyboard.press('n');
  const after = page.getByRole('dialog', { name: 'Add a node after this one' });
  await expect(after.getByRole('button', { name: /^Input/ })).toHaveCount(0);
  await after.getByRole('textbox', { name: 'Node type' }).fill('llm');
  await page.keyboard.press('Enter');
  await expect(after).toHaveCount(0);
  await expectSaved(page);
  const stored = storedFlow(served.db, 'keyed');
  const added = stored.nodes.find((n) => n.type === 'llm')!;
  expect(stored.edges).toContainEqual(expect.objectContaining({ source: 'say', sourcePort: 'out', target: added.id }));
  expect(added.config.prompt).toBe('{{nodes.say.output}}');
  // Beside the template, and chosen for editing.
  const say = stored.nodes.find((n) => n.id === 'say')!;
  expect(added.position.x).toBeGreaterThan(say.position.x);
  await expect(page.locator('.inspector h2')).toContainText(`LLM ${added.id}`);
  // Typed in a field, n is a letter.
  await page.getByLabel('Label').fill('Summ');
  await page.getByLabel('Label').press('n');
  await expect(page.getByLabel('Label')).toHaveValue('Summn');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Nothing selected: every type, unjoined. Escape adds nothing.
  await page.locator('.react-flow__pane').click({ position: { x: 40, y: 40 } });
  await page.keyboard.press('n');
  const anywhere = page.getByRole('dialog', { name: 'Add a node' });
  await expect(anywhere.getByRole('button', { name: /^Input/ })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(anywhere).toHaveCount(0);
  await expect(nodes(page)).toHaveCount(4);

  // A double-click on empty canvas: the node goes where it was clicked.
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  await page.mouse.dblclick(pane.x + 120, pane.y + pane.height - 120);
  await anywhere.getByRole('button', { name: /^Stop/ }).click();
  await expectSaved(page);
  const stop = storedFlow(served.db, 'keyed').nodes.find((n) => n.type === 'stop')!;
  const card = (await page.getByTestId(`rf__node-${stop.id}`).boundingBox())!;
  expect(Math.abs(card.x + card.width / 2 - (pane.x + 120))).toBeLessThan(40);
});

test('the + on a selected edge puts a node in its middle: the nodes after move along, its prompt reads the node before; one Undo takes it back', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'inserted' }));
  const before = storedFlow(served.db, 'inserted');
  const edge = before.edges.find((e) => e.source === 'say' && e.target === 'result')!;
  // Only the selected edge shows it.
  await expect(page.getByRole('button', { name: 'Insert a node into this edge' })).toHaveCount(0);
  // A level edge has no height, which Playwright counts as not visible: clicked as it is.
  await page.getByTestId(`rf__edge-${edge.id}`).click({ force: true });
  await expect(page.getByRole('button', { name: 'Insert a node into this edge' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('edge-insert-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('edge-insert-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'Insert a node into this edge' }).click();
  const menu = page.getByRole('dialog', { name: 'Insert a node into this edge' });
  // What can sit between: an input and an output to go on with.
  await expect(menu.getByRole('button', { name: /^Output/ })).toHaveCount(0);
  await expect(menu.getByRole('button', { name: /^Input/ })).toHaveCount(0);
  await menu.getByRole('button', { name: /^LLM/ }).click();
  await expectSaved(page);
  const after = storedFlow(served.db, 'inserted');
  const llm = after.nodes.find((n) => n.type === 'llm')!;
  expect(after.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual(
    ['input>say', `say>${llm.id}`, `${llm.id}>result`].sort(),
  );
  expect(llm.config.prompt).toBe('{{nodes.say.output}}');
  const x = (flow: typeof before, id: string) => flow.nodes.find((n) => n.id === id)!.position.x;
  // Between the two, the result moved right to make room.
  expect(llm.position.x).toBeGreaterThan(x(after, 'say'));
  expect(x(after, 'result')).toBeGreaterThan(llm.position.x);
  expect(x(after, 'result')).toBeGreaterThan(x(before, 'result'));

  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  const undone = storedFlow(served.db, 'inserted');
  expect(undone.nodes.map((n) => n.type)).not.toContain('llm');
  expect(undone.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual(['input>say', 'say>result']);
  expect(x(undone, 'result')).toBe(x(before, 'result'));
});

test("a new flow's empty canvas says where to start, and its button adds the Input node; undone, the hint is back", async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Empty start');
  const hint = page.getByRole('region', { name: 'Empty flow' });
  await expect(hint).toContainText('This flow has no nodes yet.');
  await hint.getByRole('button', { name: 'Add an Input node' }).click();
  await expect(nodes(page)).toHaveCount(1);
  await expect(page.getByTestId('rf__node-input_1')).toBeVisible();
  await expect(hint).toHaveCount(0);
  await expectSaved(page);
  const flowId = new URL(page.url()).hash.replace('#/flow/', '');
  expect(storedFlow(served.db, decodeURIComponent(flowId)).nodes.map((n) => n.type)).toEqual(['input']);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(nodes(page)).toHaveCount(0);
  await expect(hint).toBeVisible();
});

test('every node type of the palette is added and saved, those still to be set up saying what they need', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(laidOutEcho()));
  await newFlow(page, served, 'Every type');
  const types = nodeRegistry.types();
  for (const type of types) await page.getByTestId(`palette-${type}`).click();
  // One card per node type no longer fits the view: the view goes to the card each click adds, so it is seen.
  await expect(page.getByTestId(`rf__node-${types.at(-1)}_1`)).toBeInViewport();
  // Every card in view (the canvas draws only the cards it shows), to count them.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await expect(nodes(page)).toHaveCount(types.length);
  await expectSaved(page);
  // An MCP tool node and a flow node named no tool or flow yet, and each save adding one was refused.
  await expect(page.getByText('Your last edit was not saved')).toHaveCount(0);
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  expect(storedFlow(served.db, flowId).nodes.map((n) => n.type)).toEqual(types);
  await page.getByTestId('rf__node-mcp_tool_1').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await expect(page.locator('.inspector')).toContainText('choose the tool this node calls');
  // The flow node offers the other flows, not this one: calling itself would never end.
  await page.getByTestId('rf__node-flow_1').click();
  await page.locator('#field-flow').focus();
  await expect(page.locator('#field-flow-choices option')).toHaveCount(1);
  await expect(page.locator('#field-flow-choices option')).toHaveAttribute('value', 'echo_tool');
});

test("every list setting's Add, on every node type, adds a row that is saved: an MCP tool's argument, a flow's input, an agent's tool, a second answer field, a structured field", async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Every list');
  const types = nodeRegistry.types();
  for (const type of types) await page.getByTestId(`palette-${type}`).click();
  await expectSaved(page);
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  const inspector = page.locator('.inspector');
  const added: string[] = [];
  // Every card in view: one per node type no longer fits the view the palette left.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  for (const node of storedFlow(served.db, flowId).nodes) {
    await page.getByTestId(`rf__node-${node.id}`).click();
    // The inspector shows a new selection just after the canvas does: count its buttons once it shows this node.
    await expect(inspector.locator('h2 code')).toHaveText(node.id);
    // The output's structured fields show once that result is chosen.
    if (node.type === 'output')
      await inspector.getByRole('combobox', { name: 'Result', exact: true }).selectOption('structured');
    const adds = inspector.locator('.list-field > button');
    for (let i = 0; i < (await adds.count()); i++) {
      const add = adds.nth(i);
      added.push(`${node.type}: ${await add.textContent()}`);
      // Twice: a second row must not clash with the first (two answer fields both named "answer").
      await add.click();
      await add.click();
      await expectSaved(page);
      await expect(page.getByText('Your last edit was not saved')).toHaveCount(0);
      await expect(inspector.getByText(/^Not saved/)).toHaveCount(0);
    }
  }
  expect(added).toEqual(
    expect.arrayContaining([
      'mcp_tool: Add argument',
      'flow: Add input',
      'agent: Add tool',
      'ask: Add answer field',
      'output: Add field',
    ]),
  );
  const stored = storedFlow(served.db, flowId).nodes;
  const config = (type: string) => stored.find((n) => n.type === type)?.config ?? {};
  expect(config('mcp_tool').arguments).toEqual([
    { name: '', value: '' },
    { name: '', value: '' },
  ]);
  expect((config('ask').fields as { name: string }[]).map((f) => f.name)).toEqual(['answer', 'answer_2', 'answer_3']);
  expect((config('output').fields as { name: string }[]).map((f) => f.name)).toEqual(['field', 'field_2']);
  // A row with no name yet is said on the node, and blocks a run until it has one.
  await page.getByTestId(`rf__node-${stored.find((n) => n.type === 'mcp_tool')?.id}`).click();
  await expect(inspector).toContainText('argument 1 has no name yet');
});

test("a flow node adds the inputs its called flow takes in one click, from this flow's parameters of the same name", async ({
  page,
  served,
}) => {
  const summary = {
    ...buildFlow({
      id: 'summary',
      parameters: [
        { name: 'text', type: 'string' },
        { name: 'tone', type: 'string', required: false },
      ],
      nodes: [input(), template('say', '{{inputs.text}} {{inputs.tone}}'), output('{{nodes.say.output}}')],
      edges: ['input>say', 'say>result'],
    }),
    name: 'Summary',
    tool: { name: 'summary_tool' },
  };
  const caller = {
    ...buildFlow({
      id: 'caller',
      parameters: [{ name: 'text', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'call', type: 'flow', position: { x: 320, y: 100 }, config: { flow: 'summary_tool' } },
        { ...output('{{nodes.call.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Caller',
  };
  withDatabase(served.db, (services) => services.versions.publish(services.flows.create(summary).id));
  await openFlow(page, served, caller);
  await page.getByTestId('rf__node-call').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const takes = page.getByRole('group', { name: 'Inputs the called flow takes' });
  await expect(takes).toContainText('summary_tool takes text (required), tone');
  await expect(page.locator('.inspector')).toContainText('requires the input "text" (string)');
  await page.screenshot({ path: test.info().outputPath('called-inputs-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('called-inputs-dark.png') });
  await takes.getByRole('button', { name: 'Add them' }).click();
  await expectSaved(page);
  await expect(takes).toHaveCount(0);
  await expect(page.locator('.inspector')).not.toContainText('requires the input');
  expect(storedFlow(served.db, 'caller').nodes.find((n) => n.id === 'call')?.config.inputs).toEqual([
    { name: 'text', value: '{{inputs.text}}' },
    { name: 'tone', value: '' },
  ]);
});

test('a flow node calling an unpublished flow loses its problem when that flow is published in another window, with no edit here', async ({
  page,
  served,
}) => {
  const child = {
    ...buildFlow({ id: 'child', nodes: [input(), output('done')], edges: ['input>result'] }),
    name: 'Child',
    tool: { name: 'child_tool' },
  };
  const caller = {
    ...buildFlow({
      id: 'caller',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'call', type: 'flow', position: { x: 320, y: 100 }, config: { flow: 'child_tool' } },
        { ...output('{{nodes.call.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Caller',
  };
  withDatabase(served.db, (services) => services.flows.create(child));
  await openFlow(page, served, caller);
  await page.getByRole('tab', { name: /Problems/ }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems).toContainText('SUBFLOW_NOT_PUBLISHED');
  await expect(page.getByTestId('rf__node-call')).toHaveClass(/has-problems/);

  const other = await page.context().newPage();
  await other.goto(`${served.editorUrl}#/flow/child`);
  await other.getByRole('button', { name: 'Publish' }).click();
  await other.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
  await expect(other.getByRole('dialog')).toHaveCount(0);

  await expect(page.locator('.side-panel')).toContainText('No problems.');
  await expect(page.getByTestId('rf__node-call')).not.toHaveClass(/has-problems/);
  await other.close();
});

test('a node set up step by step saves each step: an enum answer before its options, a pattern typed slowly', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Step by step');
  await page.getByTestId('palette-ask').click();
  await page.getByTestId('palette-condition').click();
  await expectSaved(page);
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  const refused = page.getByText('Your last edit was not saved');
  const inspector = page.locator('.inspector');

  // An enum answer: its type first, its options after (each save in between was refused, the type set back).
  await page.getByTestId('rf__node-ask_1').click();
  // Options are asked for where they mean something: an enum field.
  await expect(inspector.getByLabel('Options')).toHaveCount(0);
  await inspector.getByLabel('Type').selectOption('enum');
  await expectSaved(page);
  await expect(inspector.getByText('is an enum with no options')).toBeVisible();
  // Typed as a flow parameter's enum values are: comma separated.
  await inspector.getByLabel('Options').fill('yes, no');
  await expectSaved(page);
  await expect(inspector.getByText('is an enum with no options')).toHaveCount(0);
  expect(storedFlow(served.db, flowId).nodes.find((n) => n.id === 'ask_1')?.config.fields).toEqual([
    expect.objectContaining({ type: 'enum', options: ['yes', 'no'] }),
  ]);

  // A pattern typed more slowly than the editor saves: invalid until its group is closed.
  await page.getByTestId('rf__node-condition_1').click();
  await inspector.getByLabel('Operator').selectOption('matches');
  const operand = inspector.getByLabel('Compare with');
  await operand.fill('');
  await operand.pressSequentially('"(yes|no)"', { delay: 400 });
  await expectSaved(page);
  await expect(refused).toHaveCount(0);
  await expect(operand).toHaveValue('"(yes|no)"');
  expect(storedFlow(served.db, flowId).nodes.find((n) => n.id === 'condition_1')?.config.rules).toEqual([
    expect.objectContaining({ operator: 'matches', operand: '(yes|no)' }),
  ]);
});

test('a condition compares with what is typed: bare text is text, JSON is its value, and both are there on coming back', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Compare');
  await page.getByTestId('palette-condition').click();
  await expectSaved(page);
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  const inspector = page.locator('.inspector');
  const rules = () => storedFlow(served.db, flowId).nodes.find((n) => n.id === 'condition_1')?.config.rules;

  await page.getByTestId('rf__node-condition_1').click();
  const operand = inspector.getByLabel('Compare with');
  await operand.fill('billing');
  await expectSaved(page);
  expect(rules()).toEqual([expect.objectContaining({ operator: 'equals', operand: 'billing' })]);
  await expect(inspector.locator('.error')).toHaveCount(0);

  // Another node and back: the text is there as typed, not dropped.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.getByTestId('rf__node-condition_1').click();
  await expect(operand).toHaveValue('billing');

  await inspector.getByLabel('Operator').selectOption('greater_than');
  await operand.fill('3');
  await expectSaved(page);
  expect(rules()).toEqual([expect.objectContaining({ operator: 'greater_than', operand: 3 })]);
  await operand.fill('"3"');
  await expectSaved(page);
  expect(rules()).toEqual([expect.objectContaining({ operand: '3' })]);
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.getByTestId('rf__node-condition_1').click();
  await expect(operand).toHaveValue('"3"');

  // Emptiness compares with nothing: no field for it.
  await inspector.getByLabel('Operator').selectOption('is_empty');
  await expect(operand).toHaveCount(0);

  // A pattern needs no JSON escapes.
  await inspector.getByLabel('Operator').selectOption('matches');
  await operand.fill('^\\d+ items?$');
  await expectSaved(page);
  expect(rules()).toEqual([expect.objectContaining({ operator: 'matches', operand: '^\\d+ items?$' })]);
});

test('a JSON schema left half written is there, with its error, on coming back to the node; the flow keeps the last valid one until it is JSON', async ({
  page,
  served,
}) => {
  await newFlow(page, served, 'Schema');
  await page.getByTestId('palette-llm').click();
  await page.getByTestId('palette-template').click();
  await expectSaved(page);
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  const schemaOf = () => storedFlow(served.db, flowId).nodes.find((n) => n.id === 'llm_1')?.config.jsonSchema;
  const inspector = page.locator('.inspector');
  const schema = inspector.getByLabel('JSON schema');

  await page.getByTestId('rf__node-llm_1').click();
  await schema.fill('{"type": "object"}');
  await expectSaved(page);
  expect(schemaOf()).toEqual({ type: 'object' });
  const halfWritten = '{"type": "object", "required": ["title"';
  await schema.fill(halfWritten);
  await expect(inspector.getByText('not saved yet (the text stays here)')).toBeVisible();

  await page.getByTestId('rf__node-template_1').click();
  await page.getByTestId('rf__node-llm_1').click();
  await expect(schema).toHaveValue(halfWritten);
  await expect(inspector.getByText('not saved yet (the text stays here)')).toBeVisible();
  expect(schemaOf()).toEqual({ type: 'object' });

  await schema.press('End');
  await schema.pressSequentially(']}');
  await expectSaved(page);
  await expect(inspector.getByText('not saved yet')).toHaveCount(0);
  expect(schemaOf()).toEqual({ type: 'object', required: ['title'] });
  await page.getByTestId('rf__node-template_1').click();
  await page.getByTestId('rf__node-llm_1').click();
  // Saved, it shows as stored (laid out), no draft left over.
  await expect(schema).toHaveValue(JSON.stringify({ type: 'object', required: ['title'] }, null, 2));

  // Half written again, then Undo: the value before the last edit shows (how far back depends on
  // how the typing was grouped into edits), with no error left over from the text.
  await schema.fill('{"type": ');
  await expect(inspector.getByText('not saved yet (the text stays here)')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expectSaved(page);
  const undone = schemaOf();
  expect(undone).not.toEqual({ type: 'object', required: ['title'] });
  await expect(schema).toHaveValue(undone === undefined ? '' : JSON.stringify(undone, null, 2));
  await expect(inspector.getByText('not saved yet')).toHaveCount(0);
});

test("a flow's name can be emptied to type another, and what clients are told about its tool is set in words", async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'named' }));
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  const settings = page.getByLabel('Flow settings');
  const name = settings.locator('#flow-name');
  await name.click();
  await name.press('Control+a');
  await name.press('Backspace');
  await expect(name).toHaveValue('');
  await expect(settings).toContainText('a flow needs a name: it stays “Echo” until one is typed');
  await name.pressSequentially('Otter echo');
  await expectSaved(page);
  expect(storedFlow(served.db, 'named').name).toBe('Otter echo');
  await expect(settings.getByText('a flow needs a name')).toHaveCount(0);

  // A tool name clients cannot call stays as typed, said, and is not sent (the host refused it, and
  // the field put the old name back over what was typed); the flow keeps its last good one.
  const toolName = settings.locator('#tool-name');
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await toolName.click();
  await toolName.press('End');
  await toolName.pressSequentially('}}');
  await expect(toolName).toHaveValue('echo_tool}}');
  await expect(settings).toContainText(
    'tool name "echo_tool}}" must be 1–128 letters, digits, _ . or -: it stays “echo_tool” until one is typed',
  );
  await toolName.press('Backspace');
  await toolName.press('Backspace');
  await toolName.pressSequentially('_otter');
  await expectSaved(page);
  expect(storedFlow(served.db, 'named').tool.name).toBe('echo_tool_otter');
  await expect(settings.getByText('must be 1–128 letters')).toHaveCount(0);
  await toolName.fill('flows_list');
  await expect(settings).toContainText("is reserved for Flowbench's own MCP tool");
  await expect(toolName).toHaveValue('flows_list');
  await expectSaved(page);
  expect(storedFlow(served.db, 'named').tool.name).toBe('echo_tool_otter');
  expect(refused).toEqual([]);
  await toolName.fill('echo_tool');
  await expectSaved(page);

  // The echo tool only reads: it cannot be destructive as well.
  const readOnly = settings.getByLabel(/^Only reads/);
  const destructive = settings.getByLabel(/^May delete or overwrite/);
  await expect(readOnly).toBeChecked();
  await expect(destructive).toBeDisabled();
  await expect(destructive).not.toBeChecked();
  await readOnly.uncheck();
  // MCP's default for a tool that writes: it may destroy, until said otherwise.
  await expect(destructive).toBeChecked();
  await destructive.uncheck();
  await settings.getByLabel(/^Reaches the world outside/).uncheck();
  await expectSaved(page);
  expect(storedFlow(served.db, 'named').tool.annotations).toEqual({
    readOnlyHint: false,
    destructiveHint: false,
    openWorldHint: false,
  });
});

test('two windows typing in different flow settings both keep theirs; the same setting in both is refused in the later, and said', async ({
  page,
  browser,
  served,
}) => {
  // The second window's reads of the flow are held back: it writes before it has seen the first's edit.
  const { other, second, release } = await twoWindows(page, browser, served, { description: 'Old text' });
  const settingsOf = async (window: Page) => {
    await window.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    return window.getByLabel('Flow settings');
  };
  await (await settingsOf(page)).locator('#flow-description').fill('Written in the first window');
  await expectSaved(page);
  await (await settingsOf(second)).getByLabel('Tool description').fill('Written in the second window');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared')).toMatchObject({
    description: 'Written in the first window',
    tool: { description: 'Written in the second window' },
  });

  // The second window, still showing the old description, writes in it too: refused, said, and reloaded.
  await (await settingsOf(second)).locator('#flow-description').fill('Old text, and more from the second');
  release();
  await expect(second.getByText(/the flow's description was changed elsewhere/)).toBeVisible();
  expect(storedFlow(served.db, 'shared').description).toBe('Written in the first window');
  await expect(second.locator('#flow-description')).toHaveValue('Written in the first window');
  // What the second window typed is not dropped with its edit: it is shown, to be copied back.
  await expect(second.getByLabel('Not saved: flow settings · description')).toHaveValue(
    'Old text, and more from the second',
  );
  await other.close();
});

test("two windows writing different lines of the flow's description both keep theirs", async ({
  page,
  browser,
  served,
}) => {
  const lines = ['Answers a ticket.', 'Uses the help centre.', 'Signs as support.'];
  const { other, second, release } = await twoWindows(page, browser, served, { description: lines.join('\n') });
  const description = async (window: Page) => {
    await window.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    return window.getByLabel('Flow settings').locator('#flow-description');
  };
  await (await description(page)).fill(['Answers a support ticket.', ...lines.slice(1)].join('\n'));
  await expectSaved(page);
  // The second window, still showing the old text, writes in the last line: saved, merged line by line.
  const saved = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges'));
  await (await description(second)).fill([...lines.slice(0, 2), 'Signs as the support team.'].join('\n'));
  expect((await saved).status()).toBe(200);
  const merged = ['Answers a support ticket.', 'Uses the help centre.', 'Signs as the support team.'].join('\n');
  expect(storedFlow(served.db, 'shared').description).toBe(merged);
  // Shown at once, its reads of the flow still held: the answer to its edit carries the merged text.
  await expect(
    second.getByText("Saved, keeping another window's change to the flow's description, now shown here"),
  ).toBeVisible();
  await expect(second.locator('#flow-description')).toHaveValue(merged);
  await shot(second, 'description-lines-merged');
  release();
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  await other.close();
});

test('two windows connecting nodes at once both keep their connection', async ({ page, browser, served }) => {
  const extra = { id: 'extra', type: 'template', position: { x: 320, y: 400 }, config: { template: 'More' } };
  const { other, second, release } = await twoWindows(page, browser, served, {
    nodes: [...laidOutEcho().nodes, extra],
  });
  await connect(page, 'input', 'extra');
  await expectSaved(page);
  // The second window, which has not seen that connection, makes another: both ids were counted
  // from the connections there were, and the later was refused ("two edges have the id e3").
  const saved = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges'));
  await connect(second, 'extra', 'result');
  expect((await saved).status()).toBe(200);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const joins = storedFlow(served.db, 'shared').edges.map((e) => `${e.source}>${e.target}`);
  expect(joins).toEqual(['input>say', 'say>result', 'input>extra', 'extra>result']);
  release();
  await expect(second.locator('.react-flow__edge')).toHaveCount(4);
  await other.close();
});

test('the same connection made in two windows at once is there once, and said', async ({ page, browser, served }) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  await connect(page, 'input', 'result');
  await expectSaved(page);
  await connect(second, 'input', 'result');
  release();
  await expect(
    second.getByText('Another window made the same connection at the same time; it is there once'),
  ).toBeVisible();
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  await expectSaved(second);
  const joins = storedFlow(served.db, 'shared').edges.map((e) => `${e.source}>${e.target}`);
  expect(joins).toEqual(['input>say', 'say>result', 'input>result']);
  await expect(second.locator('.react-flow__edge')).toHaveCount(3);
  await other.close();
});

test('a node moved in one window and written in another keeps both: a move is no conflict', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  // The first window drags the card down.
  await dragCardDown(page, 'say');
  await expectSaved(page);
  const moved = storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.position;
  expect(moved?.y).toBeGreaterThan(150);
  // The second window, which has not seen the move, writes in a card that moved: saved, not refused.
  const saved = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges'));
  await typeInTemplate(second, 'say', ' (second window)');
  expect((await saved).status()).toBe(200);
  release();
  await expectSaved(second);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const say = storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say');
  expect(say?.config.template).toBe('You said: {{inputs.message}} (second window)');
  expect(say?.position).toEqual(moved);
  await other.close();
});

test('cards moved in one window while another removed one of them: said, and the others stay where they were put', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  // The first window removes the template card.
  await page.getByTestId('rf__node-say').click();
  await page.keyboard.press('Delete');
  await expectSaved(page);
  expect(storedFlow(served.db, 'shared').nodes.map((n) => n.id)).toEqual(['input', 'result']);
  // The second, which has not seen that, drags it and the output card together.
  await second.getByTestId('rf__node-say').click();
  await second.getByTestId('rf__node-result').click({ modifiers: ['Control'] });
  await dragCardDown(second, 'say');
  release();
  // Refused by the host (the card is gone); no banner asking to redo a move: said, and the output card moved again.
  await expectToldNotRefused(
    second,
    'Another window removed "say" while you moved it; the other cards you moved are where you put them',
  );
  const result = storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'result');
  expect(result?.position.y).toBeGreaterThan(200);
  await expect(second.getByTestId('rf__node-say')).toHaveCount(0);
  await other.close();
});

test('two windows changing different settings of one node both keep theirs; the window that saved later is shown the other change', async ({
  page,
  browser,
  served,
}) => {
  const ask = {
    id: 'say',
    type: 'llm',
    position: { x: 320, y: 100 },
    config: { prompt: 'You said: {{inputs.message}}' },
  };
  const nodes = laidOutEcho().nodes.map((node) => (node.id === 'say' ? ask : node));
  const { other, second, release } = await twoWindows(page, browser, served, { nodes });
  // The first window sets the temperature…
  await page.getByTestId('rf__node-say').click();
  await page.getByLabel('Temperature').fill('0.2');
  await expectSaved(page);
  // …and the second, which has not seen that, writes the prompt, its editor sending the node's whole config:
  // saved, not refused, and the first window's temperature is not undone.
  // The second window is told, and shows the temperature the first set.
  await savedKeeping(second, '"say" (temperature)', async () => {
    await second.getByTestId('rf__node-say').click();
    await second.getByTestId('template-prompt').locator('.cm-content').click();
    await second.keyboard.press('Control+End');
    await second.keyboard.type(' (in French)');
  });
  await expect(second.getByLabel('Temperature')).toHaveValue('0.2');
  await shot(second, 'node-settings-merged');
  release();
  await expectSaved(second);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const stored = () => storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config;
  expect(stored()).toMatchObject({ prompt: 'You said: {{inputs.message}} (in French)', temperature: 0.2 });
  // Undo in the second window takes back its prompt, not the first window's temperature.
  await second.locator('.react-flow__pane').click();
  await second.keyboard.press('Control+z');
  await expectSaved(second);
  expect(stored()).toMatchObject({ prompt: 'You said: {{inputs.message}}', temperature: 0.2 });
  await other.close();
});

test('two windows changing different items of one list both keep theirs, and undo takes back only its own', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  // The first window adds a return value to the output node…
  await page.getByTestId('rf__node-result').click();
  await page.getByRole('button', { name: 'Add return value' }).click();
  await expectSaved(page);
  // …and the second, which has not seen it, writes in the second return value: saved, both kept.
  await savedKeeping(second, '"result" (return values)', async () => {
    await second.getByTestId('rf__node-result').click();
    await second.getByTestId('template-returnValues.1.text').locator('.cm-content').click();
    await second.keyboard.press('Control+End');
    await second.keyboard.type(' times');
  });
  await expect(second.getByRole('button', { name: 'Remove Return values 3' })).toBeVisible();
  await shot(second, 'list-items-merged');
  release();
  await expectSaved(second);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const stored = () =>
    storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'result')?.config.returnValues as
      { id: string; text: string }[] | undefined;
  expect(stored()?.map((value) => [value.id, value.text])).toEqual([
    ['first', '{{nodes.say.output}}'],
    ['second', 'count={{inputs.count}} times'],
    [expect.stringMatching(/^value_[0-9a-z]{8}$/), ''],
  ]);
  // Undo in the second window takes back its words, not the value the first window added.
  await second.locator('.react-flow__pane').click();
  await second.keyboard.press('Control+z');
  await expectSaved(second);
  expect(stored()?.map((value) => value.text)).toEqual(['{{nodes.say.output}}', 'count={{inputs.count}}', '']);
  await other.close();
});

test("an output shows its chosen result's fields only; the other kind's are kept for when it is chosen back", async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'modes' }));
  await page.getByTestId('rf__node-result').click();
  const inspector = page.locator('.inspector');
  const view = inspector.getByLabel('View (MCP App)');
  await expect(inspector.getByRole('button', { name: 'Add return value' })).toBeVisible();
  await expect(inspector.getByRole('button', { name: 'Add field' })).toHaveCount(0);
  // A view shows structured fields only: return values are not offered one.
  await expect(view).toHaveCount(0);
  // A list's help is shown with it, as every other field's is.
  await expect(inspector.getByRole('group', { name: 'Summary fields' })).toContainText(
    "shown with the run's status in lists and summaries",
  );

  await inspector.getByRole('combobox', { name: 'Result', exact: true }).selectOption('structured');
  await expect(inspector.getByRole('button', { name: 'Add return value' })).toHaveCount(0);
  await inspector.getByRole('button', { name: 'Add field' }).click();
  await inspector.getByLabel('Name', { exact: true }).fill('answer');
  await view.fill('{"title": "Answer"}');
  await expectSaved(page);

  // Back to return values, a view set stays in sight: it is a problem to see and clear there.
  await inspector.getByRole('combobox', { name: 'Result', exact: true }).selectOption('return_values');
  await expect(inspector.getByRole('button', { name: 'Add field' })).toHaveCount(0);
  await expect(inspector.getByTestId('template-returnValues.0.text')).toContainText('{{nodes.say.output}}');
  await expect(inspector).toContainText('a view shows structured fields');
  await view.fill('');
  await expectSaved(page);
  await expect(view).toHaveCount(0);
  await expect(inspector).not.toContainText('a view shows structured fields');
  const config = storedFlow(served.db, 'modes').nodes.find((n) => n.id === 'result')?.config;
  expect(config).toMatchObject({ mode: 'return_values', fields: [{ name: 'answer' }] });
  expect(config).not.toHaveProperty('view');
});

test('a return value added after one was removed gets an id of its own', async ({ page, served }) => {
  await openFlow(page, served, laidOutEcho({ id: 'values' }));
  await page.getByTestId('rf__node-result').click();
  await page.getByRole('button', { name: 'Add return value' }).click();
  await page.getByRole('button', { name: 'Remove Return values 1' }).click();
  await page.getByRole('button', { name: 'Add return value' }).click();
  await expectSaved(page);
  // Ids that were counted from the list's length came back: the third value took the second's.
  const ids = (
    storedFlow(served.db, 'values').nodes.find((n) => n.id === 'result')?.config.returnValues as { id: string }[]
  ).map((value) => value.id);
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);
});

test('a node written in one window is not removed by another that has not seen the text', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  await typeInTemplate(page, 'say', ' (first window)');
  await expectSaved(page);
  // The second window still shows the old text, and removes the node: refused, the node stays with the text.
  const refusedRemoval = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges'));
  await second.getByTestId('rf__node-say').click();
  await second.locator('.react-flow__pane').press('Delete');
  expect((await refusedRemoval).status()).toBe(409);
  release();
  // The node's revision is 2 or more: a slow machine may save the typed text in more than one edit.
  await expect(second.getByRole('alert', { name: 'Refused' })).toContainText(
    /Someone changed this flow elsewhere: node "say" was changed elsewhere before this removal \(revision ([2-9]|\d\d+), removal based on 1\)\. The flow was reloaded; redo your last edit\./,
  );
  expect(storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config.template).toBe(
    'You said: {{inputs.message}} (first window)',
  );
  // Back on the second window's canvas, with the text the first wrote: removed now, seen, it goes.
  await expect(second.getByTestId('rf__node-say')).toContainText('(first window)');
  await second.getByTestId('rf__node-say').click();
  await second.locator('.react-flow__pane').press('Delete');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared').nodes.map((n) => n.id)).not.toContain('say');
  await other.close();
});

test('text typed in a node edit refused as a conflict is shown to be copied or put back, not dropped', async ({
  page,
  browser,
  served,
}) => {
  // The second window does not see the first's edit before it writes its own (its reads held back).
  const { other, second, release } = await twoWindows(
    page,
    browser,
    served,
    {},
    {
      permissions: ['clipboard-read', 'clipboard-write'],
    },
  );
  await typeInTemplate(page, 'say', ' (first window)');
  await expectSaved(page);
  const conflict = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges') && r.status() === 409);
  await typeInTemplate(second, 'say', ' (second window)');
  // Refused; the person types on while the window reloads the flow (its reads still held).
  await conflict;
  await second.keyboard.type(' and more');
  release();

  const refused = second.getByRole('alert', { name: 'Refused' });
  await expect(refused).toContainText('Someone changed this flow elsewhere: node "say" was changed elsewhere');
  await expect(refused).toContainText('The flow was reloaded; what you typed is below, to copy or put back.');
  await expect(refused).not.toContainText('reload to see it');
  const unsaved = refused.getByLabel('Not saved: say · template');
  await expect(unsaved).toHaveValue('You said: {{inputs.message}} (second window) and more');
  // Nothing of it was saved over the first window's text: not the refused edit, nor what came after it.
  await expectSaved(second);
  await second.waitForTimeout(500);
  expect(storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config.template).toBe(
    'You said: {{inputs.message}} (first window)',
  );
  await shot(second, 'unsaved-text');
  await refused.getByRole('button', { name: 'Copy' }).click();
  await expect(refused.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await second.evaluate(() => navigator.clipboard.readText())).toBe(
    'You said: {{inputs.message}} (second window) and more',
  );

  // Having seen the other window's text, the person puts theirs back in its place: saved over it, as an edit.
  await refused.getByRole('button', { name: 'Put back' }).click();
  // The only text put back, the refusal is settled: the banner goes, the toast says what was done.
  await expect(refused).toHaveCount(0);
  // Both windows changed the one line: the person's replaces the other's, and the toast says so.
  await expect(second.getByText('Put back: say · template, over the change made elsewhere')).toBeVisible();
  await expect(second.getByTestId('template-template')).toContainText('(second window) and more');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config.template).toBe(
    'You said: {{inputs.message}} (second window) and more',
  );
  await other.close();
});

/** `edit` is saved (not refused), and the toast says what the host kept of another window's change. */
async function savedKeeping(window: Page, kept: string, edit: () => Promise<void>): Promise<void> {
  const told = `Saved, keeping another window's change to ${kept}, now shown here`;
  // The toast lasts 5 s and may answer a later save than the first (typing saves as it goes): the
  // page watches for it from before the edit, so a loaded machine's late look cannot miss it.
  const toasted = window.waitForFunction((text) => document.body.innerText.includes(text), told, {
    polling: 100,
    timeout: 30_000,
  });
  const saved = window.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges'));
  await edit();
  expect((await saved).status()).toBe(200);
  await toasted;
}

/** Two windows on the echo flow with a template of three lines (the second's reads held back). */
function threeLinesInTwoWindows(page: Page, browser: Browser, served: Served) {
  const template = ['Answer in one line.', 'You said: {{inputs.message}}', 'Thanks!'].join('\n');
  const nodes = laidOutEcho().nodes.map((node) =>
    node.id === 'say' ? { ...node, config: { ...node.config, template } } : node,
  );
  return twoWindows(page, browser, served, { nodes });
}

/** Writes "Be kind. " at the start of the template's first line. */
async function writeFirstLine(window: Page): Promise<void> {
  await window.getByTestId('rf__node-say').click();
  await window.getByTestId('template-template').locator('.cm-content').click();
  await window.keyboard.press('Control+Home');
  await window.keyboard.type('Be kind. ');
}

test('two windows writing different lines of one prompt both keep theirs, and undo takes back only its own line', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await threeLinesInTwoWindows(page, browser, served);
  // The first window changes the first line…
  await writeFirstLine(page);
  await expectSaved(page);
  // …and the second, which has not seen that, the last one: saved, merged line by line as git merges.
  await savedKeeping(second, '"say" (template)', () => typeInTemplate(second, 'say', ' See you.'));
  await expect(second.getByTestId('template-template')).toContainText('Be kind. Answer in one line.');
  await shot(second, 'prompt-lines-merged');
  release();
  await expectSaved(second);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const stored = () => storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config.template;
  expect(stored()).toBe(
    ['Be kind. Answer in one line.', 'You said: {{inputs.message}}', 'Thanks! See you.'].join('\n'),
  );
  // Undo in the second window takes back its words, not the first window's line.
  await second.locator('.react-flow__pane').click();
  await second.keyboard.press('Control+z');
  await expectSaved(second);
  expect(stored()).toBe(['Be kind. Answer in one line.', 'You said: {{inputs.message}}', 'Thanks!'].join('\n'));
  await other.close();
});

test("a text put back where both windows changed one line keeps the other window's change to other lines", async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await threeLinesInTwoWindows(page, browser, served);
  // The first window changes the first line and the last…
  await writeFirstLine(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Bye.');
  await expectSaved(page);
  // …and the second, which has not seen that, the last one too: refused, as both changed that line.
  await typeInTemplate(second, 'say', ' See you.');
  release();
  const refused = second.getByRole('alert', { name: 'Refused' });
  await expect(refused.getByLabel('Not saved: say · template')).toHaveValue(
    ['Answer in one line.', 'You said: {{inputs.message}}', 'Thanks! See you.'].join('\n'),
  );
  const putBack = refused.getByRole('button', { name: 'Put back' });
  await putBack.click();
  await expect(
    second.getByText(
      'Put back: say · template, merged with the change made elsewhere; where you both changed the same lines, yours is kept (1 place)',
    ),
  ).toBeVisible();
  await shot(second, 'put-back-merged');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.config.template).toBe(
    ['Be kind. Answer in one line.', 'You said: {{inputs.message}}', 'Thanks! See you.'].join('\n'),
  );
  await other.close();
});

test('text typed in a node another window removed meanwhile is shown to be copied, with no place to put it back', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await twoWindows(page, browser, served);
  await page.getByTestId('rf__node-say').click();
  await page.locator('.react-flow__pane').press('Delete');
  await expectSaved(page);
  expect(storedFlow(served.db, 'shared').nodes.map((n) => n.id)).not.toContain('say');

  await typeInTemplate(second, 'say', ' (in a removed node)');
  release();
  const refused = second.getByRole('alert', { name: 'Refused' });
  await expect(refused).toContainText('node "say" no longer exists. The flow was reloaded; what you typed is below');
  await expect(refused).not.toContainText('reload the flow');
  await expect(refused.getByLabel('Not saved: say (no longer in the flow) · template')).toHaveValue(
    'You said: {{inputs.message}} (in a removed node)',
  );
  await expect(refused.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Put back' })).toHaveCount(0);
  await expect(second.getByTestId('rf__node-say')).toHaveCount(0);
  await other.close();
});

/**
 * The flow open in two windows (twoWindows), and a template node dropped in
 * each: the second does not see the first's before it adds its own, so both
 * take the id template_1 and the second's add is refused. The second's lands
 * at `at`; the first's at (300, 420).
 */
async function clashingAdds(page: Page, browser: Browser, served: Served, at: { x: number; y: number }) {
  const windows = await twoWindows(page, browser, served);
  await dropFromPalette(page, 'template', 300, 420);
  await expectSaved(page);
  const refusedAdd = windows.second.waitForResponse(
    (r) => r.url().endsWith('/api/flows/applyChanges') && r.status() >= 400,
  );
  await dropFromPalette(windows.second, 'template', at.x, at.y);
  await refusedAdd;
  return windows;
}

test('a node added while another window added one under the same id goes back at once under a free id, with what was typed', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await clashingAdds(page, browser, served, { x: 300, y: 420 });
  // Typed in the new node while the window reloads the flow (its reads still held).
  await typeInTemplate(second, 'template_1', 'Mine: {{inputs.message}}');
  release();

  // Nothing to do for the person: no refusal to read, the node is back beside the other window's, and said so.
  await expect(
    second.getByText(
      'Another window added a node "template_1" while this one added its own; yours is now "template_2"',
    ),
  ).toBeVisible();
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  await shot(second, 'added-node-back-at-once');
  // Selected, as a pasted node is: its settings are in the inspector.
  await expect(second.getByTestId('rf__node-template_2')).toHaveClass(/selected/);
  await expect(second.getByTestId('template-template')).toContainText('Mine: {{inputs.message}}');
  await expectSaved(second);
  // The first window's node is as it left it; the second's is stored beside it.
  const stored = storedFlow(served.db, 'shared').nodes;
  expect(stored.find((n) => n.id === 'template_1')?.config.template).toBe('');
  expect(stored.find((n) => n.id === 'template_2')?.config.template).toBe('Mine: {{inputs.message}}');
  await expect(page.getByTestId('rf__node-template_2')).toBeVisible();
  // One undo step takes the node out again.
  await second.locator('.react-flow__pane').click();
  await second.keyboard.press('Control+z');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared').nodes.map((n) => n.id)).not.toContain('template_2');
  await other.close();
});

test('a node added in a refused edit that changed other nodes too is listed with their text, and put back whole', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await clashingAdds(page, browser, served, { x: 520, y: 300 });
  // Written in a node that was there before, while the window reloads: not the added node's alone, so it is for
  // the person to choose what goes back.
  await typeInTemplate(second, 'say', ' (second window)');
  release();

  const refused = second.getByRole('alert', { name: 'Refused' });
  await expect(refused).toContainText(
    'Another window added a node "template_1" while this one added its own, so yours was not saved. The flow was reloaded; what you typed is below, to copy or put back.',
  );
  // Nothing to copy for the new node: the node alone.
  await expect(refused.getByLabel('Not saved: Template (added, not saved)')).toBeVisible();
  await expect(refused.getByLabel('Not saved: say · template')).toHaveValue(
    'You said: {{inputs.message}} (second window)',
  );
  await shot(second, 'unsaved-added-empty-node');
  await refused
    .getByRole('listitem')
    .filter({ hasText: 'Template (added, not saved)' })
    .getByRole('button', { name: 'Put back' })
    .click();
  await expect(second.getByText('Put back Template as template_2: template_1 is a node added elsewhere')).toBeVisible();
  await expect(second.getByTestId('rf__node-template_2')).toHaveClass(/selected/);
  await expectSaved(second);
  expect(
    storedFlow(served.db, 'shared')
      .nodes.filter((n) => n.type === 'template')
      .map((n) => n.id),
  ).toEqual(['say', 'template_1', 'template_2']);
  // The other text is still listed, to put back or copy.
  await expect(refused.getByLabel('Not saved: say · template')).toBeVisible();
  await other.close();
});

test('nodes added while another window added one under the same id go back together, references following the ids they take', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await clashingAdds(page, browser, served, { x: 520, y: 300 });
  // A second node, added while the window reloads, that reads the first.
  await dropFromPalette(second, 'template', 760, 300);
  await typeInTemplate(second, 'template_2', 'Then {{nodes.template_1.output}}');
  release();

  // template_1 was taken by the other window's node: the person's comes back as template_3, and the node reading
  // it reads template_3, not the other window's node.
  await expectToldNotRefused(
    second,
    'Another window added a node "template_1" while this one added its own; yours is now "template_3"',
  );
  const stored = storedFlow(served.db, 'shared');
  expect(stored.nodes.find((n) => n.id === 'template_2')?.config.template).toBe('Then {{nodes.template_3.output}}');
  expect(stored.nodes.find((n) => n.id === 'template_3')?.config.template).toBe('');
  expect(stored.nodes.find((n) => n.id === 'template_1')?.config.template).toBe('');
  await other.close();
});

test('a refused edit whose flow cannot be reloaded (Flowbench gone meanwhile) still shows what was typed, and says so', async ({
  page,
  browser,
  served,
}) => {
  // The second window's reads are held back, then fail once its edit has been refused.
  const { other, second, release } = await twoWindows(page, browser, served);
  await page.getByTestId('rf__node-say').click();
  await page.getByLabel('Label').fill('Renamed in the first');
  await expectSaved(page);

  const conflict = second.waitForResponse((r) => r.url().endsWith('/api/flows/applyChanges') && r.status() === 409);
  await second.getByTestId('rf__node-say').click();
  await second.getByLabel('Label').fill('Renamed in the second');
  await conflict;
  release('abort');
  const refused = second.getByRole('alert', { name: 'Refused' });
  await expect(refused).toContainText('The flow could not be reloaded (is Flowbench still running?)');
  await expect(refused.getByLabel('Not saved: Renamed in the second · label')).toHaveValue('Renamed in the second');
  await expect(refused.getByRole('button', { name: 'Put back' })).toHaveCount(0);
  expect(storedFlow(served.db, 'shared').nodes.find((n) => n.id === 'say')?.label).toBe('Renamed in the first');
  await other.close();
});

test('the flow settings keep each tool setting when another is typed: a switched-off tool stays off', async ({
  page,
  served,
}) => {
  const tool = { name: 'careful', whenToUse: 'for refunds', enabled: false, annotations: { readOnlyHint: true } };
  await openFlow(page, served, laidOutEcho({ id: 'careful', name: 'Careful', tool }));
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  const settings = page.getByLabel('Flow settings');
  await settings.getByLabel('Tool description').fill('Answers refund questions');
  await settings.getByLabel('When not to use').fill('for orders');
  await expectSaved(page);
  // Before, each setting typed was saved with the defaults of the others: the description went
  // when "when not to use" was typed, and the tool was offered to clients again.
  expect(storedFlow(served.db, 'careful').tool).toEqual({
    ...tool,
    description: 'Answers refund questions',
    whenNotToUse: 'for orders',
  });
  await page.reload();
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await expect(settings.getByLabel('Tool description')).toHaveValue('Answers refund questions');
  await expect(settings.getByLabel('When to use')).toHaveValue('for refunds');
  await expect(settings.getByLabel('Offered as a tool (its latest published version)')).not.toBeChecked();
});
