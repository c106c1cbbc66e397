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
