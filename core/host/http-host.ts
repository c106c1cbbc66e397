import { resolve } from 'node:path';
import { endpointsFor } from './client-config';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpEndpoint } from './mcp-endpoint';
import { ApiHost } from './api-host';
import { createApiHttpHandler } from './api-http';
import { refuseForeignRequest } from './local-guard';
import { hasRenderer, serveStatic } from './static-files';
import { watchDatabase } from './database-watcher';
import type { Services } from '../services/open-services';
import { editorSessionToken, httpToken } from './host-tokens';
import { UnansweredRequests } from './unanswered';
import { capConnections } from './connection-cap';
import { loadOnce } from '../model/load-once';

export { editorSessionToken, httpToken } from './host-tokens';

export { DEFAULT_PORT } from '../model/client-setup';

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

/**
 * The request's URL, or undefined when its target cannot be one (`http://[`,
 * bytes that are no URL): a bad request, never an exception.
 */
export function parseRequestUrl(target: string | undefined, port: number): URL | undefined {
  try {
    return new URL(target ?? '/', `http://127.0.0.1:${port}`);
  } catch {
    return undefined;
  }
}

export interface HttpHostOptions {
  port: number;
  /** false only when the user explicitly turned authentication off. */
  requireAuth: boolean;
  version: string;
  /**
   * The API host its editor pages call, when another transport shares it: the desktop app's
   * windows and the browser pages it serves then hear the same events (edits, runs, an ask
   * node's questions), and its owner watches the database for them. Without it, a host of its own.
   */
  api?: ApiHost;
}

export interface RunningHttpHost {
  url: string;
  /** The editor's address, with the session token the API requires. */
  editorUrl: string;
  port: number;
  token: string | undefined;
  api: ApiHost;
  close(): Promise<void>;
}

/** How long a host that stops waits for the answers of requests still going (see UnansweredRequests). */
const ANSWER_WAIT_MS = 2_000;

/**
 * `flowbench serve`: an HTTP server on 127.0.0.1 with the editor (renderer
 * build), its API under /api and the MCP endpoint at /mcp. Requests naming
 * another host or origin are refused with 403.
 */
export async function startHttpHost(services: Services, options: HttpHostOptions): Promise<RunningHttpHost> {
  const token = options.requireAuth ? httpToken(services) : undefined;
  // The MCP endpoint is made by the first request to /mcp (about 100 ms more for that request, once):
  // a host used as the editor alone never loads the MCP SDKs, and starts that much sooner (mcp-endpoint.ts).
  // Not made (its catalogue unreadable for now, say): this request fails, the next one tries again.
  const mcpEndpoint = loadOnce<McpEndpoint>(() =>
    import('./mcp-endpoint').then(({ createMcpEndpoint }) => createMcpEndpoint(services, options.version, token)),
  );
  const handleMcp = async (req: IncomingMessage, res: ServerResponse) => (await mcpEndpoint()).handle(req, res);
  // Clients reach this process's MCP endpoint: its port (known once listening) and token.
  const api =
    options.api ??
    new ApiHost(services, 'serve', () => ({
      ...endpointsFor(resolve(services.database.path), port, httpToken(services)),
      serving: { running: true },
    }));
  // The editor URL printed by serve carries it.
  const sessionToken = editorSessionToken(services);
  const handleApi = createApiHttpHandler(api, sessionToken);
  let port = options.port;

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = refuseForeignRequest(req, port);
    if (refusal) return sendText(res, 403, `Forbidden: ${refusal}`);
    // MCP clients post to /mcp itself: their calls skip parsing a URL (a few µs each).
    if (req.url === '/mcp') return handleMcp(req, res);
    const url = parseRequestUrl(req.url, port);
    if (!url) return sendText(res, 400, 'Bad request: the request target is not a valid URL path');
    if (url.pathname === '/mcp') return handleMcp(req, res);
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url);
    if (req.method === 'GET' && hasRenderer()) return serveStatic(url.pathname, res);
    sendText(
      res,
      404,
      hasRenderer() ? 'Not found' : 'The editor is not built: run `npm run build:renderer`. The MCP endpoint is /mcp.',
    );
  };
  // The last resort: whatever one request does wrong, it gets an answer and the server goes on.
  const unanswered = new UnansweredRequests();
  const server: HttpServer = createServer((req, res) => {
    unanswered.track(req, res);
    route(req, res).catch((error: unknown) => {
      process.stderr.write(`flowbench: ${req.method ?? '?'} request failed: ${(error as Error).message}\n`);
      if (res.headersSent) res.destroy();
      else sendText(res, 500, 'Internal error; the request was not carried out');
    });
  });
  capConnections(server);
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const stopWatching = options.api ? () => undefined : watchDatabase(services, api);
  return {
    url: `http://127.0.0.1:${port}`,
    editorUrl: `http://127.0.0.1:${port}/?session=${sessionToken}`,
    port,
    token,
    api,
    close: async () => {
      stopWatching();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await unanswered.settled(ANSWER_WAIT_MS);
      // An endpoint still loading is closed once made: its watcher and tasks' timers would keep the process alive.
      await mcpEndpoint.current?.then(
        ({ mcp }) => mcp.close(),
        () => undefined,
      );
      server.closeAllConnections();
      await closed;
    },
  };
}
