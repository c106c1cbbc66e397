import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services/open-services';
import { LineLimiter, MAX_STDIO_MESSAGE_BYTES, requestIdIn } from './line-limit';
import { McpHost } from './mcp-host';

/**
 * `flowbench mcp`: one MCP connection over stdin/stdout. Nothing but protocol
 * goes to stdout; diagnostics go to stderr. Resolves when the client hangs up.
 */
export async function serveStdio(services: Services, version: string): Promise<void> {
  const host = new McpHost(services, version);
  const server = host.createServer();
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
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  host.startWatching();
  process.stderr.write(`flowbench mcp: serving ${host.catalogue().size} flow tool(s) from ${services.database.path}\n`);
  await closed;
  await host.close();
}
