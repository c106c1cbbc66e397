import type { Page } from '@playwright/test';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { connect, expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

test('a wait node from the palette: connecting fills what it passes on, its length is set in the inspector, a run shows it waiting then its value, and Cancel ends a long wait', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'poll',
      parameters: [{ name: 'job', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'status', type: 'template', position: { x: 260, y: 100 }, config: { template: 'job {{inputs.job}}' } },
        { ...output(''), position: { x: 780, y: 100 } },
      ],
      edges: ['input>status'],
    }),
    name: 'Poll',
  });
  await page.getByTestId('palette-wait').click();
  await expect(card(page, 'wait_1')).toContainText('waits 5 seconds');
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await connect(page, 'status', 'wait_1');
  await connect(page, 'wait_1', 'result');

  await card(page, 'wait_1').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const inspector = page.locator('.inspector');
  await expect(inspector.getByTestId('template-value').locator('.cm-content')).toHaveText('{{nodes.status.output}}');
  await page.locator('#field-amount').fill('1');
  await expect(card(page, 'wait_1')).toContainText('waits 1 second');
  await expectSaved(page);
  expect(storedFlow(served.db, 'poll').nodes.find((n) => n.id === 'wait_1')?.config).toEqual({
    amount: 1,
    unit: 'seconds',
    value: '{{nodes.status.output}}',
  });

  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-job').fill('42');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(card(page, 'wait_1').getByRole('img', { name: 'running' })).toBeVisible();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  await expect(card(page, 'wait_1').locator('.fb-step-output')).toHaveText('job 42');
  await expect(card(page, 'wait_1').locator('.fb-step-line')).toHaveText(/^1\.\d s$|^1\d{3} ms$/);
  await expect(card(page, 'result').locator('.fb-step-output')).toHaveText('job 42');
  await card(page, 'wait_1').click();
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await page.screenshot({ path: test.info().outputPath('wait-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('wait-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // An hour's wait, cancelled: the run ends at once.
  await inspector.getByRole('combobox', { name: 'Unit', exact: true }).selectOption('hours');
  await expect(card(page, 'wait_1')).toContainText('waits 1 hour');
  await expectSaved(page);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(card(page, 'wait_1').getByRole('img', { name: 'running' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.run-status')).toHaveText('cancelled');
  await expect(card(page, 'wait_1').getByRole('img', { name: 'cancelled' })).toBeVisible();
});
