import Database from 'better-sqlite3';
import { holdWriteLock } from '../helpers/lock';
import { expect, expectSaved, laidOutEcho, openFlow, test } from './fixtures';

test('an edit the database cannot take yet is kept, said to be waiting, and saved once it can (reliability finding 2)', async ({
  page,
  served,
}) => {
  // Laid out side by side, as the editor would show them.
  await openFlow(page, served, laidOutEcho());
  await page.getByTestId('rf__node-say').click();
  await expect(page.getByLabel('Label')).toBeVisible();

  // Another process holds the write lock longer than a save waits for it (10 s).
  const lock = await holdWriteLock(served.db, 13_000);
  await page.getByLabel('Label').fill('typed while the database was locked');
  await expect(page.getByTestId('save-state')).toContainText('Saving paused: the database is busy', {
    timeout: 15_000,
  });
  await page.screenshot({ path: test.info().outputPath('saving-paused.png') });
  await lock.released;
  await expectSaved(page);
  await expect(page.getByTestId('rf__node-say')).toContainText('typed while the database was locked');

  const db = new Database(served.db, { readonly: true });
  const label = db.prepare("SELECT label FROM nodes WHERE flow_id = 'echo' AND id = 'say'").pluck().get();
  db.close();
  expect(label).toBe('typed while the database was locked');
});

test('a template field whose code editor cannot load (the host gone, the connection cut) is a plain text box that still saves, and the editor stays; the code editor comes back once it loads', async ({
  page,
  served,
}) => {
  await page.route(/\/assets\/template-editor-[^/]*\.js$/, (route) => route.abort());
  await openFlow(page, served, laidOutEcho());
  await page.getByTestId('rf__node-say').click();
  const field = page.getByTestId('template-template');
  await expect(field).toHaveValue('You said: {{inputs.message}}');
  await expect(field).toHaveAttribute('title', /code editor could not load/);
  await field.fill('Plainly: {{inputs.message}}');
  // The inspector's reference chips insert at the cursor, as they do in the code editor.
  await field.press('End');
  await page.getByRole('button', { name: 'inputs.count', exact: true }).click();
  await expect(field).toHaveValue('Plainly: {{inputs.message}}{{inputs.count}}');
  await expect(field).toBeFocused();
  await expectSaved(page);
  // The canvas is still there, and the card shows the new text.
  await expect(page.getByTestId('rf__node-say')).toContainText('Plainly');

  const db = new Database(served.db, { readonly: true });
  const config = db.prepare("SELECT config FROM nodes WHERE flow_id = 'echo' AND id = 'say'").pluck().get() as string;
  db.close();
  expect(JSON.parse(config)).toMatchObject({ template: 'Plainly: {{inputs.message}}{{inputs.count}}' });

  // The host is back: the code editor is loaded again without a reload, but takes the plain box's
  // place only once the person has left it, never from under their typing.
  await page.unroute(/\/assets\/template-editor-[^/]*\.js$/);
  await page.waitForResponse(/\/assets\/template-editor-[^/]*\.js$/, { timeout: 20_000 });
  await page.waitForTimeout(300);
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('Plainly: {{inputs.message}}{{inputs.count}}');
  await page.getByLabel('Label').click();
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveText(
    'Plainly: {{inputs.message}}{{inputs.count}}',
  );
});

test('a note whose Markdown code cannot load shows its text as written, and the editor stays, until the code loads', async ({
  page,
  served,
}) => {
  await page.route(/\/assets\/note-markdown-[^/]*\.js$/, (route) => route.abort());
  const note = { id: 'n1', text: 'Ask **legal** first', position: { x: 0, y: 300 }, width: 260, height: 160 };
  await openFlow(page, served, { ...laidOutEcho(), notes: [note] });
  // The stand-in, not the text shown while the code loads: the load has failed by then.
  const asWritten = page.getByTestId('note-body').getByTitle(/Markdown view could not load/);
  await expect(asWritten).toHaveText('Ask **legal** first');
  await expect(page.getByTestId('rf__node-say')).toBeVisible();
  // Once the code can load again, the note shows its Markdown, without a reload.
  await page.unroute(/\/assets\/note-markdown-[^/]*\.js$/);
  await expect(page.getByTestId('note-body').locator('strong')).toHaveText('legal', { timeout: 20_000 });
  await expect(asWritten).toHaveCount(0);
});
