import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoFlow, structuredFlow } from '../fixtures/mcp-flows';
import { runCli } from '../helpers/cli';
import { connectHttp, prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let db: string;
let serve: ServeProcess;
const clients: Client[] = [];

beforeEach(async () => {
  db = join(tempDir(), 'http.db');
  prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
  serve = await startServe(db);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await serve.stop();
});

/** A raw POST, to send headers a browser or an attacker would. */
function rawPost(port: number, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('flowbench serve: MCP over Streamable HTTP', () => {
  it('requires the bearer token', async () => {
    expect(serve.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await rawPost(serve.port, {})).toBe(401);
    expect(await rawPost(serve.port, { authorization: 'Bearer wrong' })).toBe(401);
    expect(await rawPost(serve.port, { authorization: `Bearer ${serve.token}` })).toBe(200);
  });

  it('refuses foreign Host and Origin headers with 403', async () => {
    const auth = { authorization: `Bearer ${serve.token}` };
    expect(await rawPost(serve.port, { ...auth, host: `evil.example:${serve.port}` })).toBe(403);
    expect(await rawPost(serve.port, { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await rawPost(serve.port, { ...auth, origin: `http://localhost:${serve.port}` })).toBe(200);
  });

  it('serves tools to the SDK client and keeps the token across restarts', async () => {
    const client = await connectHttp(serve.mcpUrl, serve.token);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'echo_tool',
      'flows_execute',
      'flows_list',
      'flows_result',
      'flows_start',
    ]);
    const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'over http' } });
    expect(result.content).toEqual([
      { type: 'text', text: 'You said: over http' },
      { type: 'text', text: 'count=1' },
    ]);
    const token = serve.token;
    await serve.stop();
    serve = await startServe(db);
    expect(serve.token).toBe(token);
  });

  it('sends tools/list_changed when another process publishes', async () => {
    const client = await connectHttp(serve.mcpUrl, serve.token);
    clients.push(client);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    // The standalone GET stream carries server-initiated notifications; give it a moment to open.
    await new Promise((r) => setTimeout(r, 300));
    prepareDatabase(db, (services) => services.flows.create(structuredFlow));
    expect((await runCli(['--db', db, 'publish', 'measure_word'])).code).toBe(0);
    const started = Date.now();
    while (changed === 0 && Date.now() - started < 2000) await new Promise((r) => setTimeout(r, 20));
    expect(changed).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('measure_word');
  });

  it('accepts no token only when auth is turned off explicitly', async () => {
    await serve.stop();
    serve = await startServe(db, ['--no-auth']);
    expect(serve.token).toBeUndefined();
    expect(await rawPost(serve.port, {})).toBe(200);
  });
});
