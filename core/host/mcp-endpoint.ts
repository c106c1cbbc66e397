import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHttpHandler } from '../mcp/http';
import { McpHost } from '../mcp/mcp-host';
import type { Services } from '../services/open-services';

/** The MCP endpoint of an HTTP host (`/mcp`): its protocol host and the handler of its requests. */
export interface McpEndpoint {
  mcp: McpHost;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * The MCP endpoint of `flowbench serve` and the desktop app, made by the
 * first request to `/mcp` (see http-host.ts): the MCP SDKs it loads, both
 * revisions' servers with their schemas, were a quarter of a start's CPU.
 */
export function createMcpEndpoint(services: Services, version: string, token: string | undefined): McpEndpoint {
  const mcp = new McpHost(services, version);
  // Clients told of catalogue changes exist only from now on: nothing to compare before.
  mcp.startWatching();
  return { mcp, handle: createMcpHttpHandler(mcp, { token }) };
}
