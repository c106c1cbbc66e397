import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { prepareDatabase } from '../helpers/mcp';
import { startServe } from '../helpers/serve';
import { expect, expectSaved, laidOutEcho, test } from './fixtures';

const labelInDatabase = (db: string): unknown => {
  const sqlite = new Database(db, { readonly: true });
  const label = sqlite.prepare("SELECT label FROM nodes WHERE flow_id = 'echo' AND id = 'say'").pluck().get();
  sqlite.close();
  return label;
};

test('nothing typed is lost while Flowbench restarts: the tab keeps its session, says saving is paused, and saves after the restart and after a reload', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-restart-'));
  const db = join(dir, 'restart.db');
  prepareDatabase(db, (services) => services.flows.create(laidOutEcho()));
  let serve = await startServe(db);
  const { port } = serve;
  try {
    await page.goto(`${serve.editorUrl}#/flow/echo`);
    await page.getByTestId('rf__node-say').click();
    const label = page.getByLabel('Label');
    await expect(label).toBeVisible();

    // Flowbench stops; an edit typed meanwhile is kept and said to be waiting.
    await serve.stop();
    await label.fill('typed while Flowbench was stopped');
    await expect(page.getByTestId('save-state')).toHaveText(
      'Saving paused: Flowbench is not reachable — your edits are kept',
      { timeout: 10_000 },
    );

    // It comes back on the same database and port: the same tab saves the edit by itself.
    serve = await startServe(db, [], { port });
    await expectSaved(page);
    expect(labelInDatabase(db)).toBe('typed while Flowbench was stopped');

    // Saving fails again (the API refuses to answer), and the page is reloaded before it can retry:
    // the edit survives the reload, from this browser's storage, and is saved once the API answers.
    await page.route('**/api/flows/applyChanges', (route) => route.abort('connectionrefused'));
    await label.fill('typed, then the page was reloaded');
    await expect(page.getByTestId('save-state')).toContainText('Saving paused', { timeout: 10_000 });
    await page.reload();
    await expect(page.getByText('Restored 1 edit that had not been saved')).toBeVisible();
    await expect(page.getByTestId('rf__node-say')).toContainText('typed, then the page was reloaded');
    expect(labelInDatabase(db)).toBe('typed while Flowbench was stopped');
    await page.unroute('**/api/flows/applyChanges');
    await expectSaved(page);
    expect(labelInDatabase(db)).toBe('typed, then the page was reloaded');
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page whose session is not valid says so instead of showing an empty list', async ({ page, served }) => {
  const url = new URL(served.editorUrl);
  url.searchParams.set('session', 'not-the-session');
  await page.goto(url.toString());
  await expect(page.getByRole('alert')).toContainText("This page's session is not valid");
  await expect(page.getByText('No flows yet')).toHaveCount(0);
});

test('when Flowbench has stopped, a click that needs it says so, and a page whose code cannot load says so instead of going blank', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-gone-'));
  const db = join(dir, 'gone.db');
  prepareDatabase(db, (services) => services.flows.create(laidOutEcho()));
  expect((await runCli(['--db', db, 'run', 'echo', '--input', 'message=hi'])).code).toBe(0);
  const serve = await startServe(db);
  try {
    // Nothing is left uncaught: each failure is shown where the person is.
    const uncaught: string[] = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    await page.goto(`${serve.editorUrl}#/flow/echo`);
    await page.getByRole('tab', { name: 'Run' }).click();
    const remove = page.getByRole('button', { name: /Delete run/ });
    await expect(remove).toHaveCount(1);

    await serve.stop();
    await remove.click();
    await expect(page.locator('.toast')).toContainText('Flowbench is not reachable');
    await expect(remove).toHaveCount(1);

    // The providers page's code was never loaded, and now cannot be.
    await page.getByRole('link', { name: '← Flows' }).click();
    await page.getByRole('link', { name: 'Model providers' }).click();
    await expect(page.getByRole('alert')).toContainText('This page could not open');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(uncaught).toEqual([]);
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
