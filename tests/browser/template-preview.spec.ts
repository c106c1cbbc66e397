import { summaryChain } from '../helpers/flows';
import { expect, openFlow, test } from './fixtures';

const chain = summaryChain();

test('a template field shows its text with the run shown’s values as it is typed, as n8n shows an expression’s result, and says which references found nothing', async ({
  page,
  served,
  localModel,
}) => {
  await localModel(() => ({ content: 'A SUMMARY' }));
  await openFlow(page, served, chain);
  // No run yet: nothing to fill it with, no preview.
  await page.getByTestId('rf__node-summarise').click();
  await expect(page.getByLabel("With the run's values")).toHaveCount(0);

  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const preview = page.getByLabel("With the run's values");
  await expect(preview).toContainText('Summarise CLEAN otters');

  // Typed: the preview follows.
  await page.getByTestId('template-prompt').locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' for {{inputs.text}} fans');
  await expect(preview.locator('pre')).toHaveText('Summarise CLEAN otters for otters fans');

  // A run to an earlier node: what follows was skipped, and the output node's text says it found nothing.
  await page.getByTestId('rf__node-clean').click();
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: /^Run to/ }).click();
  await expect(page.getByTestId('run-to')).toBeVisible();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  await page.getByTestId('rf__node-result').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await expect(page.getByLabel("With the run's values").first()).toContainText(
    'Nothing in that run for {{nodes.summarise.output}}: it fills in empty',
  );
});
