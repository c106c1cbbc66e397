import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow } from '../../tests/fixtures/mcp-flows';
import { publishFlows } from '../../tests/helpers/mcp';
import { useTempDir } from '../../tests/helpers/temp';
import { openServices, type Services } from '../services/open-services';
import { createMcpHttpHandler, MAX_BODY_BYTES } from './http';
import { McpHost } from './mcp-host';

const tempDir = useTempDir();
let services: Services;
let server: Server;
let host: McpHost;

afterEach(async () => {
  await host.close();
  await new Promise((resolve) => server.close(resolve));
  services.close();
});

async function start(options: { idleMs?: number; maxSessions?: number }) {
  services = openServices(join(tempDir(), 'sessions.db'));
  publishFlows(services, [echoFlow]);
  host = new McpHost(services, 'test');
  const handler = createMcpHttpHandler(host, { token: 'a-token-of-32-characters-or-more!', ...options });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const connect = async (scheme = 'Bearer') => {
    const client = new Client({ name: 'sessions', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `${scheme} a-token-of-32-characters-or-more!` } },
      }),
    );
    return client;
  };
  return { handler, connect, url };
}

describe('MCP HTTP sessions (security finding 8)', () => {
  it('keeps at most maxSessions: a new session closes the one used least recently', async () => {
    const { handler, connect } = await start({ maxSessions: 3 });
    const clients = [];
    for (let i = 0; i < 5; i++) clients.push(await connect());
    expect(handler.sessionCount).toBe(3);
    // The newest sessions still answer; the oldest was closed and says so.
    expect((await clients[4]!.listTools()).tools.map((t) => t.name)).toContain('echo_tool');
    await expect(clients[0]!.listTools()).rejects.toThrow();
  });

  it('closes a session left idle past idleMs', async () => {
    const { handler, connect } = await start({ idleMs: 200 });
    await connect();
    expect(handler.sessionCount).toBe(1);
    await new Promise((r) => setTimeout(r, 600));
    expect(handler.sessionCount).toBe(0);
  });

  it('accepts the bearer scheme in any case', async () => {
    const { connect } = await start({});
    const client = await connect('bearer');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('refuses a body over the limit (413), one that is no JSON and one that is no JSON-RPC request (400), each as a JSON-RPC error, and goes on', async () => {
    const { connect, url } = await start({});
    const post = (body: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: 'Bearer a-token-of-32-characters-or-more!',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const large = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', pad: 'x'.repeat(MAX_BODY_BYTES) }),
    );
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ jsonrpc: '2.0', error: { message: 'body too large' } });
    const broken = await post('{"jsonrpc": "2.0", ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
    });
    // JSON, but no JSON-RPC request: -32600 with the request's id (the SDK said -32700, id null).
    const invalid = await post('{"jsonrpc":"2.0","id":7,"method":"tools/list","params":null}');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: 'Invalid Request: params must be an object when given' },
    });
    expect((await (await connect()).listTools()).tools.map((t) => t.name)).toContain('echo_tool');
  });
});
