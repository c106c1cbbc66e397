import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { BIN, ROOT } from '../helpers/cli';
import { prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

/**
 * The MCP Inspector CLI, a client no one here wrote, against both transports.
 * It exits 0 even when a call failed, so every assertion is on its JSON output.
 */
const INSPECTOR = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

function inspect(args: readonly string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR, '--cli', ...args], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', () => {
      const start = stdout.indexOf('{');
      try {
        resolve(JSON.parse(stdout.slice(start, stdout.lastIndexOf('}') + 1)));
      } catch {
        reject(new Error(`inspector printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** tools/call of echo_tool through the Inspector, with `key=value` arguments. */
const callEcho = (target: readonly string[], ...toolArgs: string[]) =>
  inspect([...target, '--method', 'tools/call', '--tool-name', 'echo_tool', '--tool-arg', ...toolArgs]);

const tempDir = useTempDir();
let db: string;
let serve: ServeProcess;

beforeAll(async () => {
  db = join(tempDir(), 'inspector.db');
  prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
  serve = await startServe(db);
});
afterAll(() => serve.stop());

describe('MCP Inspector CLI', () => {
  it('lists and calls tools over stdio', async () => {
    const stdio = [process.execPath, BIN, '-e', `FLOWBENCH_DB=${db}`, 'mcp'];
    const list = (await inspect([...stdio, '--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name).sort()).toEqual([
      'echo_tool',
      'flows_execute',
      'flows_list',
      'flows_result',
      'flows_start',
    ]);
    const call = await callEcho(stdio, 'message=inspected', 'count=2');
    expect(call).toEqual({
      content: [
        { type: 'text', text: 'You said: inspected' },
        { type: 'text', text: 'count=2' },
      ],
      // The Inspector does not declare MCP Apps (io.modelcontextprotocol/ui): no run view data.
    });
    const bad = await callEcho(stdio, 'count=2');
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: 'Invalid arguments for echo_tool: missing required input: message' }],
    });
  });

  it('lists and calls tools over Streamable HTTP with the bearer token', async () => {
    const http = [serve.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${serve.token}`];
    const list = (await inspect([...http, '--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toContain('echo_tool');
    const call = await callEcho(http, 'message=via http');
    expect(call).toMatchObject({
      content: [
        { type: 'text', text: 'You said: via http' },
        { type: 'text', text: 'count=1' },
      ],
    });
  });
});
