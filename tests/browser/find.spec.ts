import type { Locator, Page } from '@playwright/test';
import { generatedFlow } from '../helpers/flows';
import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test, withDatabase } from './fixtures';

/** True when the element's box lies inside the canvas's on screen. */
async function isInView(page: Page, element: Locator): Promise<boolean> {
  const canvas = (await page.locator('.react-flow').boundingBox())!;
  const box = await element.boundingBox();
  if (!box) return false;
  return (
    box.x >= canvas.x &&
    box.y >= canvas.y &&
    box.x + box.width <= canvas.x + canvas.width &&
    box.y + box.height <= canvas.y + canvas.height
  );
}

/** Opens Find over the laid-out flow (Ctrl+F, or Ctrl+H with Replace): its bar, its words field and its count. */
async function openFind(page: Page, keys: 'Control+f' | 'Control+h') {
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(keys);
  const bar = page.getByRole('search', { name: 'Find on the canvas' });
  return {
    bar,
    words: bar.getByRole('searchbox', { name: 'Find nodes and notes' }),
    count: bar.locator('.find-count'),
  };
}

test('Ctrl+F finds nodes and notes by label, prompt and text, and brings each into view, selected', async ({
  page,
  served,
}) => {
  // 600 nodes opened fitted: at that zoom a card is a bare label, and the ones to find are far apart.
  const flow = generatedFlow(600, 'findable');
  const nodes = flow.nodes.map((node) =>
    node.id === 'n520'
      ? { ...node, label: 'Refund policy' }
      : node.id === 'n37'
        ? { ...node, config: { template: 'Say no to a refund after 30 days. {{nodes.n36.output}}' } }
        : node,
  );
  const notes = [{ id: 'why', text: 'Refunds are the hard part', position: { x: 11_000, y: 1_600 } }];
  await openFlow(page, served, { ...flow, nodes, notes });
  await expect(page.getByTestId('rf__node-n1')).toBeVisible();

  await page.locator('.react-flow__pane').click();
  await page.keyboard.press('Control+f');
  const field = page.getByRole('searchbox', { name: 'Find nodes and notes' });
  await expect(field).toBeFocused();
  await field.fill('refund');

  // The label first, then the prompt, then the note: each selected and in view, with where the words are.
  const count = page.getByRole('search', { name: 'Find on the canvas' }).locator('.find-count');
  const where = page.getByTestId('find-where');
  await expect(count).toHaveText('1 of 3');
  await expect(where).toHaveText('Refund policy label: Refund policy');
  const policy = page.getByTestId('rf__node-n520');
  await expect(policy).toHaveClass(/selected/);
  await expect.poll(() => isInView(page, policy)).toBe(true);

  await field.press('Enter');
  await expect(count).toHaveText('2 of 3');
  await expect(where).toHaveText('Step 37 template: Say no to a refund after 30 days. {{nodes.n36.ou…');
  const prompt = page.getByTestId('rf__node-n37');
  await expect(prompt).toHaveClass(/selected/);
  // Only the node found is selected (the one before is out of view, not drawn).
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(1);
  await expect.poll(() => isInView(page, prompt)).toBe(true);
  // The inspector shows the node found.
  await expect(page.locator('.cm-content', { hasText: 'Say no to a refund' })).toBeVisible();

  await field.press('Enter');
  await expect(count).toHaveText('3 of 3');
  await expect(where).toContainText('Sticky note text: Refunds are the hard part');
  await expect.poll(() => isInView(page, page.getByTestId('rf__node-note:why'))).toBe(true);

  // Shift+Enter goes back; past the first, to the last.
  await field.press('Shift+Enter');
  await expect(count).toHaveText('2 of 3');
  await page.getByRole('button', { name: 'Previous match' }).click();
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(count).toHaveText('3 of 3');

  await field.fill('no such words');
  await expect(count).toHaveText('No matches');
  await expect(where).toHaveCount(0);

  // Escape closes Find and leaves the last match selected; the toolbar's Find opens it again with the same words.
  await field.fill('policy');
  await expect(count).toHaveText('1 of 1');
  await field.press('Escape');
  await expect(page.getByRole('search', { name: 'Find on the canvas' })).toHaveCount(0);
  await expect(policy).toHaveClass(/selected/);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('policy');
});

test('Ctrl+H replaces the words in one match or in all of them, each one edit that Undo takes back, and says what it left', async ({
  page,
  served,
}) => {
  const flow = buildFlow({
    id: 'replaceable',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      input(),
      { ...template('ticket_intro', 'About the ticket: {{inputs.topic}}'), label: 'Ticket intro' },
      template('later', 'A TICKET, a ticket.'),
      output('Your ticket: {{nodes.later.output}}'),
    ],
    edges: ['input>ticket_intro', 'ticket_intro>later', 'later>result'],
  });
  const laidOut = { ...flow, nodes: flow.nodes.map((node, i) => ({ ...node, position: { x: i * 320, y: 100 } })) };
  await openFlow(page, served, laidOut);
  await expect(page.locator('.fb-node')).toHaveCount(4);

  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+h');
  const bar = page.getByRole('search', { name: 'Find on the canvas' });
  await expect(bar.getByRole('button', { name: 'Toggle Replace' })).toHaveAttribute('aria-expanded', 'true');
  await bar.getByRole('searchbox', { name: 'Find nodes and notes' }).fill('ticket');
  await expect(bar.locator('.find-count')).toHaveText('1 of 3');
  await bar.getByRole('textbox', { name: 'Replace with' }).fill('request');

  // Replace: in the first match only (its label and its template), then on to the next. What was typed goes in as typed.
  await bar.getByRole('button', { name: 'Replace', exact: true }).click();
  const report = bar.getByTestId('replace-report');
  // Its id stays ticket_intro (other nodes refer to it), and the report says so.
  await expect(report).toHaveText(
    'Replaced 2 times in 1 node. Left as it was: "request intro": the words are also in its id, its type or a setting that is not text.',
  );
  await expect(page.getByTestId('rf__node-ticket_intro')).toContainText('request intro');
  await expect(bar.locator('.find-count')).toHaveText('2 of 3');
  await expect(page.getByTestId('rf__node-later')).toHaveClass(/selected/);

  // Replace all: the rest, as one edit.
  await bar.getByRole('button', { name: 'Replace all' }).click();
  await expect(report).toContainText('Replaced 3 times in 2 nodes.');
  await expectSaved(page);
  const stored = storedFlow(served.db, 'replaceable');
  const text = (id: string) => stored.nodes.find((n) => n.id === id)?.config;
  expect(text('ticket_intro')).toEqual({ template: 'About the request: {{inputs.topic}}' });
  expect(text('later')).toEqual({ template: 'A request, a request.' });
  expect(text('result')).toMatchObject({ returnValues: [{ text: 'Your request: {{nodes.later.output}}' }] });
  expect(stored.nodes.find((n) => n.id === 'ticket_intro')?.label).toBe('request intro');

  // Undo takes back Replace all in one step, then the first Replace.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expectSaved(page);
  expect(storedFlow(served.db, 'replaceable').nodes.find((n) => n.id === 'later')?.config).toEqual({
    template: 'A TICKET, a ticket.',
  });
  await page.keyboard.press('Control+z');
  await expectSaved(page);
  const undone = storedFlow(served.db, 'replaceable').nodes.find((n) => n.id === 'ticket_intro');
  expect([undone?.label, undone?.config]).toEqual(['Ticket intro', { template: 'About the ticket: {{inputs.topic}}' }]);

  // Over a version shown, read-only: nothing to replace in.
  withDatabase(served.db, (services) => services.versions.publish('replaceable', 'first'));
  await page.reload();
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.getByRole('region', { name: 'Versions' }).getByRole('button', { name: 'Show' }).click();
  await page.keyboard.press('Control+h');
  await bar.getByRole('searchbox', { name: 'Find nodes and notes' }).fill('ticket');
  await expect(bar.getByRole('textbox', { name: 'Replace with' })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Replace all' })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Replace all' })).toHaveAttribute(
    'title',
    'This is version 1, shown read-only: go back to the draft to edit',
  );
});

test("Find's toggles match case, whole words and regular expressions, Replace can keep capitals, and the words stay while Find is closed", async ({
  page,
  served,
}) => {
  const flow = buildFlow({
    id: 'toggles',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      input(),
      template('pile', 'Tickets pile up'),
      { ...template('desk', 'at the desk'), label: 'Ticket desk' },
      template('one', 'a ticket'),
      output('{{nodes.one.output}}'),
    ],
    edges: ['input>pile', 'pile>desk', 'desk>one', 'one>result'],
  });
  const laidOut = { ...flow, nodes: flow.nodes.map((node, i) => ({ ...node, position: { x: i * 320, y: 100 } })) };
  await openFlow(page, served, laidOut);
  await expect(page.locator('.fb-node')).toHaveCount(5);

  const { bar, words, count } = await openFind(page, 'Control+f');
  await words.fill('ticket');
  await expect(count).toHaveText('1 of 3');
  // Whole word (the button): "Tickets" no longer counts.
  await bar.getByRole('button', { name: 'Whole word' }).click();
  await expect(bar.getByRole('button', { name: 'Whole word' })).toHaveAttribute('aria-pressed', 'true');
  await expect(count).toHaveText('1 of 2');
  // Match case (its key, in the field): only "a ticket".
  await words.press('Alt+c');
  await expect(count).toHaveText('1 of 1');
  await expect(page.getByTestId('rf__node-one')).toHaveClass(/selected/);

  // Closed and opened again: the same words and toggles, the words selected to type over.
  await words.press('Escape');
  await expect(bar).toHaveCount(0);
  await page.keyboard.press('Control+f');
  await expect(words).toHaveValue('ticket');
  await expect(bar.getByRole('button', { name: 'Match case' })).toHaveAttribute('aria-pressed', 'true');
  await expect(count).toHaveText('1 of 1');
  expect(await words.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart!, el.selectionEnd!))).toBe(
    'ticket',
  );

  // Replace all with Preserve case (Alt+P), case ignored again: each replacement takes the capitals it replaces.
  await bar.getByRole('button', { name: 'Match case' }).click();
  await page.keyboard.press('Control+h');
  const replacement = bar.getByRole('textbox', { name: 'Replace with' });
  await replacement.fill('request');
  await replacement.press('Alt+p');
  await expect(bar.getByRole('button', { name: 'Preserve case' })).toHaveAttribute('aria-pressed', 'true');
  await bar.getByRole('button', { name: 'Replace all' }).click();
  await expect(bar.getByTestId('replace-report')).toHaveText('Replaced 2 times in 2 nodes.');
  await expectSaved(page);
  const stored = storedFlow(served.db, 'toggles');
  const node = (id: string) => stored.nodes.find((n) => n.id === id);
  expect(node('desk')?.label).toBe('Request desk');
  expect(node('one')?.config).toEqual({ template: 'a request' });
  expect(node('pile')?.config).toEqual({ template: 'Tickets pile up' });

  // A regular expression (.*, Alt+R): one that is not valid is said, and nothing can be replaced with it.
  await words.press('Alt+r');
  await expect(bar.getByRole('button', { name: 'Regular expression' })).toHaveAttribute('aria-pressed', 'true');
  await words.fill('req(');
  await expect(count).toHaveText('Not valid');
  await expect(count).toHaveAttribute('title', /Invalid regular expression/);
  await expect(bar.getByRole('button', { name: 'Replace all' })).toBeDisabled();
  await words.fill('req\\w+');
  await expect(count).toHaveText('1 of 2');

  // Its replacement takes groups, line breaks and case changes, as VS Code's does (said in the field's tooltip).
  await expect(replacement).toHaveAttribute('title', /\\U \\L/);
  await replacement.press('Alt+p');
  await expect(bar.getByRole('button', { name: 'Preserve case' })).toHaveAttribute('aria-pressed', 'false');
  await words.fill('a (re\\w+)');
  await replacement.fill('\\U$1\\n');
  await bar.getByRole('button', { name: 'Replace all' }).click();
  await expect(bar.getByTestId('replace-report')).toHaveText('Replaced 1 time in 1 node.');
  await expectSaved(page);
  expect(storedFlow(served.db, 'toggles').nodes.find((n) => n.id === 'one')?.config).toEqual({ template: 'REQUEST\n' });
});

/** A flow whose one template is a long run of one letter: what a nested repeat backtracks on without end. */
function backtrackingFlow() {
  const flow = buildFlow({
    id: 'backtracks',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [input(), template('long', `${'a'.repeat(40)}!`), output('{{nodes.long.output}}')],
    edges: ['input>long', 'long>result'],
  });
  return { ...flow, nodes: flow.nodes.map((node, i) => ({ ...node, position: { x: i * 320, y: 100 } })) };
}

test('a regular expression that backtracks without end is stopped and said, the editor never freezes, and the next words are found and replaced', async ({
  page,
  served,
}) => {
  await openFlow(page, served, backtrackingFlow());
  await expect(page.locator('.fb-node')).toHaveCount(3);
  const { bar, words, count } = await openFind(page, 'Control+h');
  await words.press('Alt+r');
  await expect(bar.getByRole('button', { name: 'Regular expression' })).toHaveAttribute('aria-pressed', 'true');
  await words.fill('(a+)+$');

  // While it runs, the page answers at once: on the page's thread it would never answer again.
  const asked = Date.now();
  await page.evaluate(() => document.title);
  expect(Date.now() - asked).toBeLessThan(1_000);
  await expect(count).toHaveText('Too slow', { timeout: 10_000 });
  await expect(count).toHaveAttribute('title', /took over 2 s on this flow's text.*\(a\+\)\+/);
  await expect(bar.getByRole('button', { name: 'Replace all' })).toBeDisabled();

  // The next words run in a new worker, and Replace all uses it too.
  await words.fill('a{3}!');
  await expect(count).toHaveText('1 of 1');
  await expect(bar.getByRole('note')).toHaveCount(0); // guarded: no word of running unguarded
  await bar.getByRole('textbox', { name: 'Replace with' }).fill('\\U$&');
  await bar.getByRole('button', { name: 'Replace all' }).click();
  await expect(bar.getByTestId('replace-report')).toHaveText('Replaced 1 time in 1 node.');
  await expectSaved(page);
  const long = storedFlow(served.db, 'backtracks').nodes.find((n) => n.id === 'long');
  expect(long?.config).toEqual({ template: `${'a'.repeat(37)}AAA!` });

  // Find closed: its worker goes, with its copy of the flow.
  expect(page.workers().length).toBeGreaterThan(0);
  await words.press('Escape');
  await expect(bar).toHaveCount(0);
  await expect.poll(() => page.workers().length).toBe(0);
});

test("where Find's worker cannot load, regular expressions are searched and replaced on the page, and Find says it has no time limit", async ({
  page,
  served,
}) => {
  let refused = 0;
  await page.route(/\/assets\/pattern-worker-[^/]*\.js$/, (route) => {
    refused++;
    return route.abort();
  });
  await openFlow(page, served, backtrackingFlow());
  await expect(page.locator('.fb-node')).toHaveCount(3);
  const { bar, words, count } = await openFind(page, 'Control+h');
  await words.press('Alt+r');
  await words.fill('(a)\\1!');
  await expect(count).toHaveText('1 of 1');
  // Said, not silent: the search had no time limit.
  await expect(bar.getByRole('note')).toContainText('ran on the page with no time limit');
  await bar.getByRole('textbox', { name: 'Replace with' }).fill('$1.');
  await bar.getByRole('button', { name: 'Replace all' }).click();
  await expect(bar.getByTestId('replace-report')).toHaveText('Replaced 1 time in 1 node.');
  await expectSaved(page);
  const long = storedFlow(served.db, 'backtracks').nodes.find((n) => n.id === 'long');
  expect(long?.config).toEqual({ template: `${'a'.repeat(38)}a.` });
  expect(refused).toBeGreaterThan(0); // the worker was asked for, and could not load
});

test("with Find open on a regular expression, an edit of a node is found at once, and only that node is sent to Find's worker", async ({
  page,
  served,
}) => {
  // What the page posts to workers: whole flows, and changes of one (see core/editing/flow-delta.ts).
  await page.addInitScript(() => {
    const posted: { nodes: number }[] = [];
    (window as unknown as { posted: typeof posted }).posted = posted;
    const post = Object.getOwnPropertyDescriptor(Worker.prototype, 'postMessage')?.value as (
      this: Worker,
      ...args: unknown[]
    ) => void;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const request = message as { flow?: { nodes: unknown[] }; delta?: { lists: { nodes?: { changed: unknown[] } } } };
      if (request.flow) posted.push({ nodes: request.flow.nodes.length });
      else if (request.delta) posted.push({ nodes: request.delta.lists.nodes?.changed.length ?? 0 });
      return post.call(this, message, ...rest);
    } as Worker['postMessage'];
  });
  await openFlow(page, served, backtrackingFlow());
  await expect(page.locator('.fb-node')).toHaveCount(3);
  const { words, count } = await openFind(page, 'Control+f');
  await words.press('Alt+r');
  await words.fill('zebra\\d');
  await expect(count).toHaveText('No matches');

  await page.getByTestId('rf__node-long').click();
  await page.getByTestId('template-template').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('a zebra7');
  await expect(count).toHaveText('1 of 1');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('no stripes');
  await expect(count).toHaveText('No matches');
  await expectSaved(page);

  const posted = await page.evaluate(() => (window as unknown as { posted: { nodes: number }[] }).posted);
  // The flow went whole once (its 3 nodes), then each edit sent the one node it changed.
  expect(posted[0]).toEqual({ nodes: 3 });
  expect(posted.length).toBeGreaterThan(2);
  for (const later of posted.slice(1)) expect(later.nodes).toBeLessThanOrEqual(1);
});
