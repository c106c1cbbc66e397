import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli';
import { expect, expectSaved, laidOutEcho, openFlow, storedFlow, test } from './fixtures';

const EXAMPLE = join(ROOT, 'resources', 'examples', 'triage-ticket.json');
const ICON = join(ROOT, 'resources', 'icons', 'icon.png');

test('a flow file dropped on the window is imported and opened; a file that is no flow says why (issue 18, point 2)', async ({
  page,
  served,
}) => {
  await page.goto(served.editorUrl);
  await expect(page.getByText('No flows yet.')).toBeVisible();
  const drop = async (name: string, text: string) => {
    const dataTransfer = await page.evaluateHandle(
      ([fileName, content]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([content ?? ''], fileName ?? 'x', { type: 'application/json' }));
        return transfer;
      },
      [name, text],
    );
    await page.dispatchEvent('.app', 'dragover', { dataTransfer });
    await page.dispatchEvent('.app', 'drop', { dataTransfer });
  };
  await drop('triage-ticket.json', readFileSync(EXAMPLE, 'utf8'));
  await expect(page.locator('.flow-title')).toHaveText('Triage a support ticket');
  await expect(page).toHaveURL(/#\/flow\//);

  await page.getByRole('link', { name: '← Flows' }).click();
  await drop('notes.json', '{"hello": "world"}');
  await expect(page.getByRole('dialog')).toContainText('notes.json');
});

test("the tool's icon is chosen in the flow settings, kept, and removed (issue 19, point 4)", async ({
  page,
  served,
}) => {
  const flow = laidOutEcho();
  await openFlow(page, served, flow);
  await page.getByLabel('Tool icon file').setInputFiles(ICON);
  await expect(page.getByRole('img', { name: 'Tool icon' })).toBeVisible();
  // Shown, not a broken image: the page's Content-Security-Policy lets a data: image load.
  await expect
    .poll(() => page.getByRole('img', { name: 'Tool icon' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await page.locator('.tool-icon-field').screenshot({ path: test.info().outputPath('icon.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('.tool-icon-field').screenshot({ path: test.info().outputPath('icon-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectSaved(page);
  expect(storedFlow(served.db, flow.id ?? '').tool.icon).toMatch(/^data:image\/png;base64,/);

  await page.getByLabel('Tool icon file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an image'),
  });
  await expect(page.getByRole('alert')).toContainText('notes.txt is not a PNG, JPEG, WebP or SVG image');

  await page.locator('.tool-icon-field').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('img', { name: 'Tool icon' })).toHaveCount(0);
  await expectSaved(page);
  expect(storedFlow(served.db, flow.id ?? '').tool.icon).toBeUndefined();
});
