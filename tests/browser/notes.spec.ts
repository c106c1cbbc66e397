import type { Browser, Page } from '@playwright/test';
import { boxesApart } from '../helpers/boxes';
import {
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

const MARKDOWN = '## Plan\n- ask for **JSON**\n- see [the docs](https://example.com/docs)';

/** The note `id`, or without one the first note added here (each added one gets an id of its own, `note_…`). */
const note = (page: Page, id?: string) =>
  id ? page.getByTestId(`rf__node-note:${id}`) : page.locator('[data-testid^="rf__node-note:note_"]').first();

test('sticky notes: add from the palette, write, recolour, resize, move with the nodes, undo, delete; stored with the flow', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'noted', name: 'Noted flow' }));
  await expect(page.locator('.fb-node')).toHaveCount(3);

  // A click on the palette's last item puts an empty note in the middle of the view, selected.
  await page.getByTestId('palette-note').click();
  await expect(note(page)).toBeVisible();
  await expect(note(page)).toHaveClass(/selected/);
  await expect(note(page).getByTestId('note-body')).toHaveText('Double-click to write a note (Markdown)');

  // Double-click writes (Markdown, as n8n's notes); Escape ends the writing and keeps the note selected.
  await note(page).getByTestId('note-body').dblclick();
  const text = note(page).getByLabel('Note text');
  await expect(text).toBeFocused();
  await page.keyboard.type('## Plan');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- ask for **JSON**');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- see [the docs](https://example.com/docs)');
  await page.keyboard.press('Escape');
  await expect(text).toHaveCount(0);
  const body = note(page).getByTestId('note-body');
  await expect(body.getByRole('heading', { level: 2 })).toHaveText('Plan');
  await expect(body.getByRole('listitem')).toHaveText(['ask for JSON', 'see the docs']);
  await expect(body.locator('strong')).toHaveText('JSON');
  // A link opens outside the editor.
  await expect(body.getByRole('link', { name: 'the docs' })).toHaveAttribute('target', '_blank');
  await expect(note(page)).toHaveClass(/selected/);

  // Its toolbar recolours it.
  await page.getByRole('button', { name: 'Colour blue' }).click();
  await expect(note(page)).toHaveClass(/note-blue/);
  await expect(page.getByRole('button', { name: 'Colour blue' })).toHaveAttribute('aria-pressed', 'true');

  // The bottom-right handle resizes it.
  const before = (await note(page).boundingBox())!;
  const handle = (await note(page).locator('.react-flow__resize-control.handle.bottom.right').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 120, handle.y + 80, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await note(page).boundingBox())!.width).toBeGreaterThan(before.width + 60);

  // It is drawn under the cards: a card placed over it stays clickable.
  const zNote = await note(page).evaluate((el) => Number(getComputedStyle(el).zIndex));
  const zCard = await page.getByTestId('rf__node-input').evaluate((el) => Number(getComputedStyle(el).zIndex));
  expect(zNote).toBeLessThan(zCard);

  await expectSaved(page);
  let stored = storedFlow(served.db, 'noted').notes;
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({
    id: expect.stringMatching(/^note_[0-9a-z]{8}$/),
    text: MARKDOWN,
    color: 'blue',
  });
  expect(stored[0]!.width).toBeGreaterThan(300);
  expect(stored[0]!.height).toBeGreaterThan(200);

  // Dragged, it moves; with Ctrl+A the nodes and the note move together, as one undo step.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('Control+a');
  const input = (await page.getByTestId('rf__node-input').boundingBox())!;
  await page.mouse.move(input.x + 20, input.y + 10);
  await page.mouse.down();
  await page.mouse.move(input.x + 120, input.y + 110, { steps: 8 });
  await page.mouse.up();
  await expectSaved(page);
  const moved = storedFlow(served.db, 'noted');
  expect(moved.notes[0]!.position.x).toBeGreaterThanOrEqual(stored[0]!.position.x + 80);
  expect(moved.nodes.find((n) => n.id === 'input')!.position.x).toBeGreaterThanOrEqual(80);
  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  expect(storedFlow(served.db, 'noted').notes[0]!.position).toEqual(stored[0]!.position);

  // Reloaded, the note is there as it was left.
  await page.reload();
  await expect(note(page).getByRole('heading', { level: 2 })).toHaveText('Plan');
  await expect(note(page)).toHaveClass(/note-blue/);

  // Delete removes it; undo brings it back.
  await note(page).click();
  await page.keyboard.press('Delete');
  await expect(note(page)).toHaveCount(0);
  await expect(page.locator('.fb-node')).toHaveCount(3);
  await page.locator('.react-flow__pane').press('Control+z');
  await expect(note(page)).toBeVisible();
  await expectSaved(page);
  stored = storedFlow(served.db, 'noted').notes;
  expect(stored.map((n) => n.text)).toEqual([MARKDOWN]);
  await page.screenshot({ path: test.info().outputPath('note.png') });
});

test('a sticky note dragged from the palette lands where it is dropped; a run never sees it', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'dropped', name: 'Dropped note' }));
  await page
    .getByTestId('palette-note')
    .dragTo(page.locator('.react-flow__pane'), { targetPosition: { x: 300, y: 420 } });
  await expect(note(page)).toBeVisible();
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const box = (await note(page).boundingBox())!;
  // Its top-left corner at the drop point (snapped to the 20 px grid, at the canvas's zoom).
  expect(Math.abs(box.x - (pane.x + 300))).toBeLessThan(40);
  expect(Math.abs(box.y - (pane.y + 420))).toBeLessThan(40);
  await expectSaved(page);
  expect(storedFlow(served.db, 'dropped').notes).toHaveLength(1);

  // The Run tab runs the flow's three nodes; the note has no step.
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-message').fill('hi');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-result').locator('.run-status')).toHaveText('succeeded');
  await expect(page.locator('.steps .step-name')).toHaveCount(3);
  // The stored run (committed by serve's writer thread a moment after the answer) has those three steps.
  const storedSteps = () =>
    withDatabase(served.db, (services) => {
      const [summary] = services.runs.list({ flowId: 'dropped', limit: 1 });
      return summary ? services.runs.get(summary.id).steps.map((s) => s.nodeId) : [];
    });
  await expect.poll(storedSteps).toHaveLength(3);
  expect(storedSteps().some((id) => id.startsWith('note'))).toBe(false);
});

test('Shift+S adds a note; Ctrl+C / Ctrl+V copy notes with nodes; a flow opens with its notes in view', async ({
  page,
  served,
}) => {
  const far = { id: 'far', text: 'Far to the right <b>x</b>', position: { x: 1600, y: 600 }, width: 260, height: 160 };
  await openFlow(page, served, { ...laidOutEcho({ id: 'keys', name: 'Keys' }), notes: [far] });
  // HTML in a note is shown as the text it is, never run or drawn.
  await expect(note(page, 'far').getByTestId('note-body')).toHaveText('Far to the right <b>x</b>');
  await expect(note(page, 'far').locator('b')).toHaveCount(0);
  // Opened fitted to the nodes and the note far out: all of it in the canvas.
  const canvas = (await page.locator('.react-flow__pane').boundingBox())!;
  const farBox = (await note(page, 'far').boundingBox())!;
  expect(farBox.x + farBox.width).toBeLessThanOrEqual(canvas.x + canvas.width);
  expect(farBox.y + farBox.height).toBeLessThanOrEqual(canvas.y + canvas.height);

  await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
  await page.keyboard.press('Shift+S');
  await expect(note(page)).toHaveClass(/selected/);
  // Placed in view, clear of every card.
  const added = (await note(page).boundingBox())!;
  for (const card of await page.locator('.fb-node').all())
    expect(boxesApart(added, (await card.boundingBox())!)).toBe(true);

  // The far note and the input node, copied and pasted: both again, beside the originals.
  await note(page, 'far').click();
  await page.getByTestId('rf__node-input').click({ modifiers: ['Control'] });
  await page.keyboard.press('Control+c');
  await expect(page.getByText('Copied 1 node and 1 note')).toBeVisible();
  await page.keyboard.press('Control+v');
  await expectSaved(page);
  const stored = storedFlow(served.db, 'keys');
  expect(stored.notes.map((n) => [n.id, n.text])).toEqual([
    ['far', 'Far to the right <b>x</b>'],
    [expect.stringMatching(/^note_/), ''],
    [expect.stringMatching(/^note_/), 'Far to the right <b>x</b>'],
  ]);
  expect(stored.notes[2]!.position).toEqual({ x: 1640, y: 640 });
  expect(stored.nodes.map((n) => n.id)).toContain('input_1');
});

test('Layout takes a note along with the cards inside it', async ({ page, served }) => {
  const around = { id: 'around', text: 'Input and prompt', position: { x: -20, y: 60 }, width: 580, height: 170 };
  // Cards out of line, so that the layout moves them.
  const flow = laidOutEcho({ id: 'laid', name: 'Laid' });
  flow.nodes = flow.nodes.map((n, i) => ({ ...n, position: { x: i * 320, y: i === 2 ? 600 : 100 } }));
  await openFlow(page, served, { ...flow, notes: [around] });
  const before = (await page.getByTestId('rf__node-say').boundingBox())!;
  await page.getByRole('button', { name: 'Layout' }).click();
  await expect.poll(async () => (await page.getByTestId('rf__node-say').boundingBox())!.y).not.toBe(before.y);
  await expectSaved(page);
  const stored = storedFlow(served.db, 'laid');
  const note = stored.notes[0]!;
  for (const id of ['input', 'say']) {
    const { x, y } = stored.nodes.find((n) => n.id === id)!.position;
    expect(x).toBeGreaterThanOrEqual(note.position.x);
    expect(y).toBeGreaterThanOrEqual(note.position.y);
    expect(x + 220).toBeLessThanOrEqual(note.position.x + note.width);
    expect(y + 90).toBeLessThanOrEqual(note.position.y + note.height);
  }
  // One undo takes the cards and the note back.
  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  expect(storedFlow(served.db, 'laid').notes[0]!.position).toEqual(around.position);
});

/**
 * A flow with the notes `plan` and `todo` open in `page` and in a second
 * window (a browser context of its own, as another editor window or another
 * person's tab), whose reads of the flow are held back until `release`: it
 * has not seen the first's edits when it writes.
 */
async function notesInTwoWindows(page: Page, browser: Browser, served: Served, plan = 'Plan') {
  const sticky = (id: string, text: string, x: number) => ({ id, text, position: { x, y: 320 } });
  await openFlow(
    page,
    served,
    laidOutEcho({ id: 'shared', notes: [sticky('plan', plan, 0), sticky('todo', 'To do', 400)] }),
  );
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(`${served.editorUrl}#/flow/shared`);
  for (const window of [page, second]) await expect(note(window, 'todo')).toBeVisible();
  const release = await holdFlowReads(second);
  return { other, second, release };
}

/** Writes `text` at the end of a note, as a person does, and waits for it to be saved. */
async function append(window: Page, id: string, text: string): Promise<void> {
  await note(window, id).getByTestId('note-body').dblclick();
  await window.keyboard.press('End');
  await window.keyboard.type(text);
  await window.keyboard.press('Escape');
  await expectSaved(window);
}

test('two windows writing in different notes of one flow both keep their text, also when one has not yet seen the other', async ({
  page,
  browser,
  served,
}) => {
  const { other, second, release } = await notesInTwoWindows(page, browser, served);
  await append(page, 'plan', ': ask for JSON');
  await append(second, 'todo', ': add retries');
  // Both are stored: the second window's list did not replace the first's note.
  expect(storedFlow(served.db, 'shared').notes.map((n) => [n.id, n.text])).toEqual([
    ['plan', 'Plan: ask for JSON'],
    ['todo', 'To do: add retries'],
  ]);
  await expect(second.getByRole('alertdialog')).toHaveCount(0);
  // The second window is given the merged notes with its answer, before any read of the flow: it shows both, and says so.
  await expect(
    second.getByText("Saved, keeping another window's change to the flow's sticky notes, now shown here"),
  ).toBeVisible();
  await expect(note(second, 'plan').getByTestId('note-body')).toHaveText('Plan: ask for JSON');
  await expect(note(second, 'todo').getByTestId('note-body')).toHaveText('To do: add retries');
  // Undo in the second window takes back its words, not the first window's.
  await second.locator('.react-flow__pane').click();
  await second.keyboard.press('Control+z');
  await expectSaved(second);
  expect(storedFlow(served.db, 'shared').notes.map((n) => n.text)).toEqual(['Plan: ask for JSON', 'To do']);
  release();
  await other.close();
});

test('a note recoloured in one window and written in another keeps both', async ({ page, browser, served }) => {
  const { other, second, release } = await notesInTwoWindows(page, browser, served);
  await note(page, 'plan').click();
  await page.getByRole('button', { name: 'Colour blue' }).click();
  await expectSaved(page);
  // The second window, still showing the note yellow, writes in it: merged, not refused.
  await append(second, 'plan', ': ask for JSON');
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  expect(storedFlow(served.db, 'shared').notes.find((n) => n.id === 'plan')).toMatchObject({
    text: 'Plan: ask for JSON',
    color: 'blue',
  });
  release();
  await expect(note(second, 'plan')).toHaveClass(/note-blue/);
  await other.close();
});

test('two windows writing different lines of one note both keep theirs, merged line by line', async ({
  page,
  browser,
  served,
}) => {
  const plan = ['Plan', '- prompts', '- tests'].join('\n');
  const { other, second, release } = await notesInTwoWindows(page, browser, served, plan);
  await note(page, 'plan').getByTestId('note-body').dblclick();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type(' (Ana)');
  await page.keyboard.press('Escape');
  await expectSaved(page);
  // The second window, still showing the old text, adds a line at the end: merged, not refused.
  await note(second, 'plan').getByTestId('note-body').dblclick();
  await second.keyboard.press('Control+End');
  await second.keyboard.type('\n- docs');
  await second.keyboard.press('Escape');
  await expectSaved(second);
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const merged = ['Plan (Ana)', '- prompts', '- tests', '- docs'].join('\n');
  expect(storedFlow(served.db, 'shared').notes.find((n) => n.id === 'plan')?.text).toBe(merged);
  // Shown at once (its reads still held), as the note's Markdown: the first window's words and both windows' items.
  await expect(note(second, 'plan').getByTestId('note-body')).toContainText('Plan (Ana)');
  await expect(note(second, 'plan').getByRole('listitem')).toHaveText(['prompts', 'tests', 'docs']);
  release();
  await other.close();
});

test('two windows adding a note at once both keep theirs', async ({ page, browser, served }) => {
  const { other, second, release } = await notesInTwoWindows(page, browser, served);
  for (const window of [page, second]) {
    await window.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await window.keyboard.press('Shift+S');
    await expectSaved(window);
  }
  // Ids counted from the notes there were gave both `note_1`, and the two empty notes, placed alike, were
  // stored as one: each window thought it had its own.
  await expect(second.getByRole('alert', { name: 'Refused' })).toHaveCount(0);
  const ids = storedFlow(served.db, 'shared').notes.map((n) => n.id);
  expect(ids).toEqual(['plan', 'todo', expect.stringMatching(/^note_/), expect.stringMatching(/^note_/)]);
  expect(new Set(ids).size).toBe(4);
  release();
  await expect(second.locator('[data-testid^="rf__node-note:"]')).toHaveCount(4);
  await other.close();
});

test('a note resized from its top-left corner is one edit: one Undo puts back its size and its place', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'corner', name: 'Corner' }));
  await page.getByTestId('palette-note').click();
  await expect(note(page)).toHaveClass(/selected/);
  await expectSaved(page);
  const [was] = storedFlow(served.db, 'corner').notes;
  const handle = (await note(page).locator('.react-flow__resize-control.handle.top.left').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x - 100, handle.y - 60, { steps: 8 });
  await page.mouse.up();
  await expectSaved(page);
  const [resized] = storedFlow(served.db, 'corner').notes;
  expect(resized!.width).toBeGreaterThan(was!.width + 60);
  expect(resized!.position.x).toBeLessThan(was!.position.x - 60);
  await page.keyboard.press('Control+z');
  await expect
    .poll(() => storedFlow(served.db, 'corner').notes[0])
    .toMatchObject({
      position: was!.position,
      width: was!.width,
      height: was!.height,
    });
});
