import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoFlow } from '../fixtures/mcp-flows';
import { connectHttp, prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe } from '../helpers/serve';
import { expect, test } from './fixtures';

test('Connect a client shows each client’s config and writes it into the client’s file beside its servers (issue 18, point 5)', async ({
  page,
}) => {
  // A home of its own, so the clients' config files are temporary copies, never the machine's.
  const home = mkdtempSync(join(tmpdir(), 'flowbench-home-'));
  const cursorFile = join(home, '.cursor', 'mcp.json');
  mkdirSync(join(home, '.cursor'));
  const cursorConfig = {
    mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
  };
  writeFileSync(cursorFile, JSON.stringify(cursorConfig, null, 2));
  const db = join(home, 'flowbench.db');
  prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
  const serve = await startServe(db, [], { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
  try {
    await page.goto(serve.editorUrl);
    await page.getByRole('link', { name: 'Connect a client' }).click();
    // The endpoint this process serves: its URL and bearer header, each with a copy button.
    const endpoint = page.getByRole('region', { name: 'MCP endpoint' });
    await expect(endpoint.getByTestId('endpoint-url')).toHaveText(serve.mcpUrl);
    await expect(endpoint).toContainText('Serving now');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await endpoint.getByRole('button', { name: 'Copy header' }).click();
    await expect(endpoint.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`Bearer ${serve.token}`);
    await endpoint.screenshot({ path: test.info().outputPath('endpoint.png') });
    // A client's call shows in the recent MCP calls as it finishes; a click opens its run.
    const recent = page.getByRole('region', { name: 'Recent MCP calls' });
    await expect(recent).toContainText('No client has called a flow yet.');
    const client = await connectHttp(serve.mcpUrl, serve.token, 'connect-test-client');
    const called = await client.callTool({ name: 'echo_tool', arguments: { message: 'hi' } });
    expect(called.isError).toBeFalsy();
    await client.close();
    await expect(recent.getByRole('row').nth(1)).toContainText(/Echo.*connect-test-client.*ms.*succeeded/);
    await recent.getByRole('button', { name: /Echo/ }).click();
    await expect(page.getByTestId('run-result')).toContainText('connect-test-client');
    await page.getByRole('link', { name: '← Flows' }).click();
    await page.getByRole('link', { name: 'Connect a client' }).click();
    const cursor = page.getByRole('region', { name: 'Cursor' });
    await expect(cursor).toContainText(cursorFile);
    await expect(cursor.locator('.client-snippet')).toContainText(`Bearer ${serve.token}`);
    await expect(page.getByRole('region', { name: 'VS Code' })).toContainText('(not there yet: writing creates it)');
    await cursor.getByRole('button', { name: "Write into Cursor's config" }).click();
    await expect(cursor.getByRole('status')).toContainText('added flowbench, flowbench-http; kept 1 other server');
    await page.screenshot({ path: test.info().outputPath('connect.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: test.info().outputPath('connect-dark.png') });
    const written = JSON.parse(readFileSync(cursorFile, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(written.mcpServers)).toEqual(['memory', 'flowbench', 'flowbench-http']);
    expect(readdirSync(join(home, '.cursor')).filter((f) => f.endsWith('.bak'))).toHaveLength(1);

    // A file with comments is refused and left alone.
    const vscodeFile = join(home, '.config', 'Code', 'User', 'mcp.json');
    mkdirSync(join(home, '.config', 'Code', 'User'), { recursive: true });
    writeFileSync(vscodeFile, '{\n  // mine\n  "servers": {}\n}\n');
    const vscode = page.getByRole('region', { name: 'VS Code' });
    await vscode.getByRole('button', { name: "Write into VS Code's config" }).click();
    await expect(vscode.getByRole('alert')).toContainText('was left as it is: it is not plain JSON');
    expect(readFileSync(vscodeFile, 'utf8')).toBe('{\n  // mine\n  "servers": {}\n}\n');
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
  }
});
