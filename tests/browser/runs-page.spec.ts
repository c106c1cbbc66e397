import type { Page } from '@playwright/test';
import { expect, laidOutEcho, openFlow, test } from './fixtures';
import { holdWriteLock } from '../helpers/write-lock';

/** Runs the open flow from its Run tab with `message`, and waits for its template's output in the step details. */
async function runWith(page: Page, message: string): Promise<void> {
  await page.locator('#run-input-message').fill(message);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByTestId('rf__node-say').click();
  await expect(page.getByRole('region', { name: 'Step details' })).toContainText(`You said: ${message}`);
}

test('All runs waits for a run whose records are still being written (the database locked), instead of listing without it', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());
  await page.getByRole('tab', { name: 'Run' }).click();
  await runWith(page, 'first');
  // Another process holds the write lock: the next run's records wait in the host's writer.
  const releaseLock = holdWriteLock(served.db);
  try {
    await runWith(page, 'second');
    const listed = page.waitForResponse((response) => response.url().endsWith('/api/runs/list'));
    await page.goto(`${served.editorUrl}#/runs`);
    await expect(page.getByRole('heading', { name: 'All runs' })).toBeVisible();
    // Listed now, the second run would be missing from a list that looks complete: the host says to wait.
    expect((await listed).status()).toBe(503);
    await page.waitForTimeout(300);
    expect(await page.locator('.runs-table tbody tr').count()).toBe(0);
  } finally {
    releaseLock();
  }
  // The page asks again by itself; both runs show, and no error stays.
  await expect(page.locator('.runs-table tbody tr')).toHaveCount(2);
  await expect(page.locator('.runs-page .error')).toHaveCount(0);
});
