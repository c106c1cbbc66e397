import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpHost } from './mcp-host';

/** Request bodies above this are refused before parsing (tool arguments themselves are limited to 1 MB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface McpHttpOptions {
  /** The bearer token clients must send; undefined only when the user turned auth off. */
  token: string | undefined;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function hasToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Object.assign(new Error('the body is not JSON'), { status: 400 });
  }
}

/**
 * Streamable HTTP for `/mcp`: one transport and protocol server per session,
 * created by an initialize request and found again by its Mcp-Session-Id.
 */
export function createMcpHttpHandler(host: McpHost, options: McpHttpOptions) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.token !== undefined && !hasToken(req, options.token)) {
      return sendJsonRpcError(res, 401, 'missing or wrong bearer token (see `flowbench mcp-config`)', {
        'www-authenticate': 'Bearer realm="flowbench"',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!existing)
        return sendJsonRpcError(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'missing Mcp-Session-Id');
      return existing.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (error) {
      return sendJsonRpcError(res, (error as { status?: number }).status ?? 400, (error as Error).message);
    }
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId) return sendJsonRpcError(res, 404, 'unknown session; initialize again');
    if (!isInitializeRequest(body))
      return sendJsonRpcError(res, 400, 'the first request of a session must be initialize');

    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await host.createServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
