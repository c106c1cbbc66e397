import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createMcpHttpHandler } from '../mcp/http';
import { McpHost } from '../mcp/mcp-host';
import { refuseForeignRequest } from './local-guard';
import type { Services } from './services';

export const DEFAULT_PORT = 4747;
const TOKEN_KEY = 'mcp.httpToken';

/** The bearer token of the HTTP endpoint: generated on first start, kept in settings. */
export function httpToken(services: Services): string {
  const existing = services.settings.get(TOKEN_KEY, z.string().min(32).optional(), undefined);
  if (existing) return existing;
  const token = randomBytes(24).toString('base64url');
  services.settings.set(TOKEN_KEY, token);
  return token;
}

export interface HttpHostOptions {
  port: number;
  /** false only when the user explicitly turned authentication off. */
  requireAuth: boolean;
  version: string;
}

export interface RunningHttpHost {
  url: string;
  port: number;
  token: string | undefined;
  mcp: McpHost;
  close(): Promise<void>;
}

/**
 * `flowbench serve`: an HTTP server on 127.0.0.1 with the MCP endpoint at
 * /mcp. Requests naming another host or origin are refused with 403.
 */
export async function startHttpHost(services: Services, options: HttpHostOptions): Promise<RunningHttpHost> {
  const mcp = new McpHost(services, options.version);
  const token = options.requireAuth ? httpToken(services) : undefined;
  const handleMcp = createMcpHttpHandler(mcp, { token });
  let port = options.port;

  const server: HttpServer = createServer((req, res) => {
    const refusal = refuseForeignRequest(req, port);
    if (refusal) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end(`Forbidden: ${refusal}\n`);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/mcp') {
      handleMcp(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`internal error: ${(error as Error).message}\n`);
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found. The MCP endpoint is /mcp.\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  mcp.startWatching();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    mcp,
    close: async () => {
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
