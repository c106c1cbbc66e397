import { releaseFlow } from '../helpers/flows';
import { expect, openFlow, storedFlow, test } from './fixtures';
import { openServices } from '../../core/services/open-services';

const release = releaseFlow();

test('an ask node pauses the run and the Run panel asks the person; a bad answer is refused and kept (issue 19, point 5)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, release);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-version').fill('2.1');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const form = page.getByRole('form', { name: 'Question from Confirm' });
  await expect(form).toContainText('Confirm asks: Ship 2.1?');
  await expect(page.getByTestId('run-result').locator('.run-status')).toHaveText('running');

  // No channel chosen and a copies count that is no whole number: the host says why, the form keeps the rest.
  await form.getByLabel('Ship it').check();
  await form.getByLabel('copies (optional)').fill('2.5');
  await form.getByRole('button', { name: 'Answer' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'node "confirm": channel: an answer is required; copies: expected a whole number',
  );
  await expect(form.getByLabel('Ship it')).toBeChecked();
  await page.screenshot({ path: test.info().outputPath('ask-question-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('ask-question-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  await form.getByLabel('channel').selectOption('beta');
  await form.getByLabel('copies (optional)').fill('3');
  // Enter writes a line of the notes; Ctrl+Enter answers (not a new run).
  await form.getByLabel('notes (optional)').pressSequentially('Fixes the login.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Tell support.');
  await expect(form).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('run-result').locator('.run-status')).toHaveText('succeeded');
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
    'ship=true channel=beta',
  ]);

  // The answer is the step's stored output (committed a moment after the run's answer).
  await expect
    .poll(() => {
      const services = openServices(served.db);
      try {
        const [summary] = services.runs.list({ flowId: storedFlow(served.db, 'release').id, limit: 1 });
        return summary && services.runs.get(summary.id).steps.find((s) => s.nodeId === 'confirm');
      } finally {
        services.close();
      }
    })
    .toMatchObject({
      status: 'succeeded',
      output: { ship: true, channel: 'beta', copies: 3, notes: 'Fixes the login.\nTell support.' },
    });
});

test('declining ends the run failed, naming the node', async ({ page, served }) => {
  await openFlow(page, served, release);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-version').fill('2.2');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const form = page.getByRole('form', { name: 'Question from Confirm' });
  await form.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByTestId('run-result').locator('.run-status')).toHaveText('failed');
  await expect(page.getByTestId('run-result').locator('.error').first()).toContainText(
    'HUMAN_INPUT_DECLINED: node "confirm": the person declined the question',
  );
});

test('a question asked before the page is reloaded is still there to answer after it', async ({ page, served }) => {
  await openFlow(page, served, release);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-version').fill('2.3');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Question from Confirm' })).toContainText('Ship 2.3?');

  await page.reload();
  await page.getByRole('tab', { name: 'Run' }).click();
  const form = page.getByRole('form', { name: 'Question from Confirm' });
  await expect(form).toContainText('Ship 2.3?');
  await form.getByLabel('channel').selectOption('stable');
  await form.getByRole('button', { name: 'Answer' }).click();
  await expect(form).toHaveCount(0);

  await expect
    .poll(() => {
      const services = openServices(served.db);
      const [summary] = services.runs.list({ flowId: storedFlow(served.db, 'release').id, limit: 1 });
      services.close();
      return summary?.status;
    })
    .toBe('succeeded');
});
