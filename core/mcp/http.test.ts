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
import { createMcpHttpHandler } from './http';
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
  return { handler, connect };
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
});
