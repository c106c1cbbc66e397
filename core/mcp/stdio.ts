import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services/open-services';
import { McpHost } from './mcp-host';

/**
 * `flowbench mcp`: one MCP connection over stdin/stdout. Nothing but protocol
 * goes to stdout; diagnostics go to stderr. Resolves when the client hangs up.
 */
export async function serveStdio(services: Services, version: string): Promise<void> {
  const host = new McpHost(services, version);
  const server = host.createServer();
  const transport = new StdioServerTransport();
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
