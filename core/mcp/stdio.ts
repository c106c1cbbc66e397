import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Services } from '../services/open-services';
import { createLegacyServer } from './legacy-server';
import { LineLimiter, MAX_STDIO_MESSAGE_BYTES, requestIdIn } from './line-limit';
import { McpHost } from './mcp-host';
import { createModernServer, ModernState } from './modern-server';

/**
 * `flowbench mcp`: one MCP connection over stdin/stdout, of whichever
 * revision the client opens with: `server/discover` pins it to 2026-07-28
 * (v2 SDK), `initialize` to 2025-11-25 (v1 SDK). Nothing but protocol goes to
 * stdout; diagnostics go to stderr. Resolves when the client hangs up.
 */
export async function serveStdio(services: Services, version: string): Promise<void> {
  const host = new McpHost(services, version);
  const input = process.stdin.pipe(
    new LineLimiter(MAX_STDIO_MESSAGE_BYTES, (start, size) => {
      const error = {
        code: -32600,
        message: `the message is ${(size / 1024 / 1024).toFixed(1)} MB; messages are limited to ${MAX_STDIO_MESSAGE_BYTES / 1024 / 1024} MB`,
      };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: requestIdIn(start), error })}\n`);
      process.stderr.write(`flowbench mcp: refused a message of ${size} bytes\n`);
    }),
  );
  const transport = new StdioServerTransport(input, process.stdout);
  const state = new ModernState();
  const closed = new Promise<void>((resolve) => {
    const close = transport.close.bind(transport);
    transport.close = () => close().finally(resolve);
    input.once('end', () => resolve());
  });
  const connection = serveBothEras(
    ({ era }) => {
      if (era === 'legacy') {
        // The v1 server speaks the same Transport interface the entry hands it.
        return createLegacyServer(host) as unknown as ModernServer;
      }
      const server = createModernServer(host, state);
      // On a pinned stdio connection the entry turns this into a notification on each open listen stream.
      const detach = host.attach({
        toolsChanged: () => void server.sendToolListChanged().catch(() => undefined),
        close: () => server.close(),
      });
      server.onclose = detach;
      return server;
    },
    {
      transport,
      onerror: (error) => process.stderr.write(`flowbench mcp: ${error.message}\n`),
    },
  );
  host.startWatching();
  process.stderr.write(`flowbench mcp: serving ${host.catalogue().size} flow tool(s) from ${services.database.path}\n`);
  await closed;
  await connection.close();
  state.close();
  await host.close();
}
