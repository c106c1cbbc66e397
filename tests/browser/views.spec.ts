import { join } from 'node:path';
import { build } from 'esbuild';
import { runCli, runJson, ROOT } from '../helpers/cli';
import { connectStdio } from '../helpers/mcp';
import { expect, test } from './fixtures';

/**
 * Issue 19, point 3: a seed-000 view, published, shown as an MCP client
 * would: the ui:// resource's HTML in a sandboxed frame, driven by ext-apps'
 * AppBridge with the real tool result from `flowbench mcp`.
 */
test("a flow's view renders the tool's structured result in a sandboxed frame (MCP Apps)", async ({ page, served }) => {
  const imported = await runJson<{ id: string }>([
    '--db',
    served.db,
    'import',
    join(ROOT, 'tests', 'fixtures', 'formats', 'tool-flow-views.json'),
  ]);
  expect((await runCli(['--db', served.db, 'publish', imported.id])).code).toBe(0);
  const { client } = await connectStdio(served.db);
  let html: string;
  let result: unknown;
  try {
    const read = await client.readResource({ uri: 'ui://flowbench/views/order_status' });
    html = (read.contents[0] as { text: string }).text;
    result = await client.callTool({ name: 'order_status', arguments: { orderId: 'A-1042' } });
  } finally {
    await client.close();
  }

  const host = await build({
    entryPoints: [join(ROOT, 'tests', 'browser', 'view-host', 'host.ts')],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    logLevel: 'silent',
  });
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: host.outputFiles[0]?.text ?? '' });
  await page.evaluate(
    ([view, toolResult]) =>
      (window as unknown as { showView(h: string, i: Record<string, unknown>, r: unknown): Promise<void> }).showView(
        view,
        { orderId: 'A-1042' },
        toolResult,
      ),
    [html, result] as const,
  );

  const view = page.frameLocator('iframe[title="view"]');
  await expect(view.getByRole('heading', { name: 'Order tracker' })).toBeVisible();
  await expect(view.locator('main')).toHaveAttribute('data-state', 'shown');
  // The data is text, never markup: the <b> arrives as written.
  await expect(view.getByText('Shipped <b>today</b>')).toBeVisible();
  await expect(view.getByRole('row', { name: /Mugs\s*4/ })).toBeVisible();
  // It told the host its size, and the host made room for all of it.
  await expect.poll(async () => (await page.locator('iframe').boundingBox())?.height ?? 0).toBeGreaterThan(200);
  await page.screenshot({ path: test.info().outputPath('view.png') });
});
