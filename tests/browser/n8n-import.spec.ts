import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

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
