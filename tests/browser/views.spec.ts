import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { FlowInput } from '../../core/model/flow';
import { dataUrl } from '../../core/model/data-urls';
import { echoFlow } from '../fixtures/mcp-flows';
import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { TINY_PNG_BASE64 } from '../helpers/images';
import { runCli, runJson, ROOT } from '../helpers/cli';
import { connectStdio, prepareDatabase, publishFlows, SHOWS_VIEWS } from '../helpers/mcp';
import { consoleErrors, expect, test } from './fixtures';

/**
 * Issue 19, point 3: flows' views shown as an MCP client would: the ui://
 * resource's HTML in a sandboxed frame, driven by ext-apps' AppBridge
 * (view-host/host.ts) with the real tool result from `flowbench mcp`.
 */

/** Opens the test host page and shows the view in it with this input and result. */
async function host(page: Page, html: string, input: Record<string, unknown>, result: unknown): Promise<void> {
  const script = await build({
    entryPoints: [join(ROOT, 'tests', 'browser', 'view-host', 'host.ts')],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    logLevel: 'silent',
  });
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: script.outputFiles[0]?.text ?? '' });
  await page.evaluate(
    ([view, toolInput, toolResult]) =>
      (window as unknown as { showView(h: string, i: unknown, r: unknown): Promise<void> }).showView(
        view,
        toolInput,
        toolResult,
      ),
    [html, input, result] as const,
  );
}

/** The view's HTML and one call's result, from a real `flowbench mcp`. */
async function viewAndCall(db: string, uri: string, tool: string, args: Record<string, unknown>) {
  const { client } = await connectStdio(db, 'view-host', { capabilities: SHOWS_VIEWS });
  try {
    const read = await client.readResource({ uri });
    const html = (read.contents[0] as { text: string }).text;
    return { html, result: await client.callTool({ name: tool, arguments: args }) };
  } finally {
    await client.close();
  }
}

test("a flow's view renders the tool's structured result in a sandboxed frame (MCP Apps)", async ({ page, served }) => {
  const imported = await runJson<{ id: string }>([
    '--db',
    served.db,
    'import',
    join(ROOT, 'tests', 'fixtures', 'formats', 'tool-flow-views.json'),
  ]);
  expect((await runCli(['--db', served.db, 'publish', imported.id])).code).toBe(0);
  const { html, result } = await viewAndCall(served.db, 'ui://flowbench/views/order_status', 'order_status', {
    orderId: 'A-1042',
  });
  const errors = consoleErrors(page);
  await host(page, html, { orderId: 'A-1042' }, result);

  const view = page.frameLocator('iframe[title="view"]');
  await expect(view.getByRole('heading', { name: 'Order tracker' })).toBeVisible();
  await expect(view.locator('main')).toHaveAttribute('data-state', 'shown');
  // The data is text, never markup: the <b> arrives as written.
  await expect(view.getByText('Shipped <b>today</b>')).toBeVisible();
  await expect(view.getByRole('row', { name: /Mugs\s*4/ })).toBeVisible();
  // It told the host its size, and the host made room for all of it.
  await expect.poll(async () => (await page.locator('iframe').boundingBox())?.height ?? 0).toBeGreaterThan(200);
  await page.screenshot({ path: test.info().outputPath('view.png') });
  // Under the host's CSP (no eval), nothing was refused.
  expect(errors).toEqual([]);
});

test('every other flow tool shows the built-in run view: each node with how it ended and what it gave', async ({
  page,
  served,
}) => {
  prepareDatabase(served.db, (services) => publishFlows(services, [echoFlow]));
  const { html, result } = await viewAndCall(served.db, 'ui://flowbench/run', 'echo_tool', { message: 'otters' });
  const errors = consoleErrors(page);
  await host(page, html, { message: 'otters' }, result);

  const view = page.frameLocator('iframe[title="view"]');
  await expect(view.getByText('Echo: succeeded')).toBeVisible();
  const say = view.getByRole('article', { name: 'say' });
  await expect(say).toContainText('succeeded');
  await expect(say).toContainText('You said: otters');
  await expect(view.getByRole('article')).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('run-view.png') });
  expect(errors).toEqual([]);
});

test("the run view shows a node's picture as the picture (an HTTP answer's image, an MCP tool's)", async ({
  page,
  served,
}) => {
  const pictureFlow: FlowInput = {
    ...buildFlow({
      id: 'picture',
      parameters: [{ name: 'photo', type: 'string' }],
      nodes: [input(), template('show', '{{inputs.photo}}'), output('{{nodes.show.output}}')],
      edges: ['input>show', 'show>result'],
    }),
    name: 'Picture',
    tool: { name: 'picture_tool' },
  };
  prepareDatabase(served.db, (services) => publishFlows(services, [pictureFlow]));
  const photo = dataUrl('image/png', TINY_PNG_BASE64);
  const { html, result } = await viewAndCall(served.db, 'ui://flowbench/run', 'picture_tool', { photo });
  await host(page, html, { photo }, result);
  const view = page.frameLocator('iframe[title="view"]');
  const shown = view.getByRole('article', { name: 'show' }).getByRole('img', { name: 'image/png picture' });
  await expect(shown).toHaveAttribute('src', photo);
  // Drawn, not broken: the browser decoded the 1×1 picture.
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});
