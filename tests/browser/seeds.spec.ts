import { buildFlow, input, output } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

test('return values are reordered with the up and down buttons and by dragging (issue 15, point 6)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'ordered',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { ...output('first', 'second', 'third'), position: { x: 320, y: 100 } },
      ],
      edges: ['input>result'],
    }),
    name: 'Ordered',
  });
  await page.getByTestId('rf__node-result').click();
  await page.getByRole('button', { name: 'Move Return values 3 up' }).click();
  await expectSaved(page);
  const texts = () => storedFlow(served.db, 'ordered').nodes.find((n) => n.id === 'result')?.config.returnValues;
  expect((texts() as { text: string }[]).map((r) => r.text)).toEqual(['first', 'third', 'second']);
  await expect(page.getByRole('button', { name: 'Move Return values 1 up' })).toBeDisabled();
  const items = page.locator('.inspector .list-field .list-item');
  await items.nth(2).dragTo(items.nth(0));
  await expectSaved(page);
  expect((texts() as { text: string }[]).map((r) => r.text)).toEqual(['second', 'first', 'third']);
});
