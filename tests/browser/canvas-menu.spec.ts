import type { Page } from '@playwright/test';
import { expect, expectSaved, laidOutEcho, openFlow, storedFlow, test, zoomToDetail } from './fixtures';

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
const menu = (page: Page, name: string) => page.getByRole('dialog', { name });
const item = (page: Page, name: string) => page.getByRole('menuitem', { name });

test('a right-click opens what can be done there, as n8n’s and Rivet’s menus: on a card, on empty canvas, on an edge', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());

  // A card: it becomes the selection; each item is what its shortcut does, the shortcut beside it.
  await card(page, 'say').click({ button: 'right' });
  await expect(card(page, 'say')).toHaveClass(/selected/);
  const selection = menu(page, 'Selection');
  await expect(selection.getByRole('menuitem')).toHaveText([
    'RenameF2',
    'Run to here',
    'Pin an output…P',
    'DeactivateD',
    'CopyCtrl+C',
    'DuplicateCtrl+D',
    'DeleteDelete',
  ]);
  // The arrow keys walk it, Enter takes the item.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(item(page, 'Deactivate')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(selection).toHaveCount(0);
  await expect(card(page, 'say')).toHaveClass(/is-deactivated/);
  await card(page, 'say').click({ button: 'right' });
  await item(page, 'Activate').click();
  await expect(card(page, 'say')).not.toHaveClass(/is-deactivated/);
  await card(page, 'say').click({ button: 'right' });
  await item(page, 'Rename').click();
  await expect(page.locator('#node-label')).toBeFocused();
  await page.keyboard.type('Say it');
  await expect(card(page, 'say')).toContainText('Say it');
  // The input node always runs: no Deactivate; Escape closes with nothing done (the card stays selected).
  await card(page, 'input').click({ button: 'right' });
  await expect(item(page, 'Deactivate')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(menu(page, 'Selection')).toHaveCount(0);
  await expect(card(page, 'input')).toHaveClass(/selected/);
  // F2 renames the selected node without the menu, as in n8n.
  await card(page, 'result').click();
  await page.getByRole('tab', { name: 'Problems' }).click();
  await card(page, 'result').focus();
  await page.keyboard.press('F2');
  await expect(page.locator('#node-label')).toBeFocused();
  await page.keyboard.press('Escape');

  // Empty canvas: a node added where the click was, from the list of types.
  const pane = page.locator('.react-flow__pane');
  const canvas = await pane.boundingBox();
  if (!canvas) throw new Error('no canvas');
  await pane.click({ button: 'right', position: { x: canvas.width / 2, y: canvas.height - 80 } });
  await expect(menu(page, 'Canvas').getByRole('menuitem')).toHaveText([
    'Add a node here…Double-click',
    'Add a sticky note here',
    'PasteCtrl+V',
    'Select allCtrl+A',
    'LayoutCtrl+Shift+L',
    'Fit viewShift+1',
  ]);
  await item(page, 'Add a node here…').click();
  await page.getByRole('textbox', { name: 'Node type' }).fill('llm');
  await page.keyboard.press('Enter');
  const added = card(page, 'llm_1');
  await expect(added).toBeVisible();
  const box = await added.boundingBox();
  expect(Math.abs((box?.y ?? 0) + (box?.height ?? 0) / 2 - (canvas.y + canvas.height - 80))).toBeLessThan(60);

  // An edge: a node put in its middle, or the edge removed.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  // Fit moves the view over a moment: measured once it has stopped.
  let last = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify(await card(page, 'say').boundingBox());
      const isStill = now === last;
      last = now;
      return isStill;
    })
    .toBe(true);
  const say = await card(page, 'say').boundingBox();
  const result = await card(page, 'result').boundingBox();
  if (!say || !result) throw new Error('no cards');
  await page.mouse.click((say.x + say.width + result.x) / 2, say.y + say.height / 2, { button: 'right' });
  await item(page, 'Insert a node…').click();
  await page.getByRole('textbox', { name: 'Node type' }).fill('template');
  await page.keyboard.press('Enter');
  await expect(card(page, 'template_1')).toBeVisible();
  await expectSaved(page);
  const stored = storedFlow(served.db, 'echo');
  expect(stored.nodes.find((n) => n.id === 'say')?.label).toBe('Say it');
  expect(stored.edges.some((e) => e.source === 'say' && e.target === 'template_1')).toBe(true);
  expect(stored.edges.some((e) => e.source === 'template_1' && e.target === 'result')).toBe(true);
});

test('far out, where edges are drawn as one path, a right-click on an edge still opens the edge’s menu', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());
  await zoomToDetail(page, 'box');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  const say = await card(page, 'say').boundingBox();
  const result = await card(page, 'result').boundingBox();
  if (!say || !result) throw new Error('no cards');
  await page.mouse.click((say.x + say.width + result.x) / 2, say.y + say.height / 2, { button: 'right' });
  await expect(menu(page, 'Edge').getByRole('menuitem')).toHaveText(['Insert a node…', 'DeleteDelete']);
  await item(page, 'Delete').click();
  await expectSaved(page);
  expect(storedFlow(served.db, 'echo').edges.map((e) => `${e.source}>${e.target}`)).toEqual(['input>say']);
});
