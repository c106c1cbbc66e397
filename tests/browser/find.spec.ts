import type { Locator, Page } from '@playwright/test';
import { generatedFlow } from '../helpers/flows';
import { expect, openFlow, test } from './fixtures';

/** True when the element's box lies inside the canvas's on screen. */
async function isInView(page: Page, element: Locator): Promise<boolean> {
  const canvas = (await page.locator('.react-flow').boundingBox())!;
  const box = await element.boundingBox();
  if (!box) return false;
  return (
    box.x >= canvas.x &&
    box.y >= canvas.y &&
    box.x + box.width <= canvas.x + canvas.width &&
    box.y + box.height <= canvas.y + canvas.height
  );
}

test('Ctrl+F finds nodes and notes by label, prompt and text, and brings each into view, selected', async ({
  page,
  served,
}) => {
  // 600 nodes opened fitted: at that zoom a card is a bare label, and the ones to find are far apart.
  const flow = generatedFlow(600, 'findable');
  const nodes = flow.nodes.map((node) =>
    node.id === 'n520'
      ? { ...node, label: 'Refund policy' }
      : node.id === 'n37'
        ? { ...node, config: { template: 'Say no to a refund after 30 days. {{nodes.n36.output}}' } }
        : node,
  );
  const notes = [{ id: 'why', text: 'Refunds are the hard part', position: { x: 11_000, y: 1_600 } }];
  await openFlow(page, served, { ...flow, nodes, notes });
  await expect(page.getByTestId('rf__node-n1')).toBeVisible();

  await page.locator('.react-flow__pane').click();
  await page.keyboard.press('Control+f');
  const field = page.getByRole('searchbox', { name: 'Find nodes and notes' });
  await expect(field).toBeFocused();
  await field.fill('refund');

  // The label first, then the prompt, then the note: each selected and in view, with where the words are.
  const count = page.getByRole('search', { name: 'Find on the canvas' }).locator('.find-count');
  const where = page.getByTestId('find-where');
  await expect(count).toHaveText('1 of 3');
  await expect(where).toHaveText('Refund policy label: Refund policy');
  const policy = page.getByTestId('rf__node-n520');
  await expect(policy).toHaveClass(/selected/);
  await expect.poll(() => isInView(page, policy)).toBe(true);

  await field.press('Enter');
  await expect(count).toHaveText('2 of 3');
  await expect(where).toHaveText('Step 37 template: Say no to a refund after 30 days. {{nodes.n36.ou…');
  const prompt = page.getByTestId('rf__node-n37');
  await expect(prompt).toHaveClass(/selected/);
  // Only the node found is selected (the one before is out of view, not drawn).
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(1);
  await expect.poll(() => isInView(page, prompt)).toBe(true);
  // The inspector shows the node found.
  await expect(page.locator('.cm-content', { hasText: 'Say no to a refund' })).toBeVisible();

  await field.press('Enter');
  await expect(count).toHaveText('3 of 3');
  await expect(where).toContainText('Sticky note text: Refunds are the hard part');
  await expect.poll(() => isInView(page, page.getByTestId('rf__node-note:why'))).toBe(true);

  // Shift+Enter goes back; past the first, to the last.
  await field.press('Shift+Enter');
  await expect(count).toHaveText('2 of 3');
  await page.getByRole('button', { name: 'Previous match' }).click();
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(count).toHaveText('3 of 3');

  await field.fill('no such words');
  await expect(count).toHaveText('No matches');
  await expect(where).toHaveCount(0);

  // Escape closes Find and leaves the last match selected; the toolbar's Find opens it again, ready to type.
  await field.fill('policy');
  await expect(count).toHaveText('1 of 1');
  await field.press('Escape');
  await expect(page.getByRole('search', { name: 'Find on the canvas' })).toHaveCount(0);
  await expect(policy).toHaveClass(/selected/);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');
});
