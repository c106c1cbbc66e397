import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { McpHost } from './mcp-host';
import { createModernServer, ModernState } from './modern-server';

/**
 * The 2026-07-28 side of `/mcp`: the v2 SDK's stateless handler, one server
 * instance per request, `subscriptions/listen` streams told of catalogue
 * changes. 2025-11-25 requests (initialize, session ids, the GET stream) are
 * not its business: `isLegacy` sends them to the sessionful v1 path.
 */
export function createModernHttp(host: McpHost) {
  // Strict: the entry's own 2025 fallback is stateless; ours keeps sessions (tasks, the GET stream).
  const state = new ModernState();
  const handler = createMcpHandler(() => createModernServer(host, state), { legacy: 'reject' });
  host.attach({
    toolsChanged: () => handler.notify.toolsChanged(),
    close: () => {
      state.close();
      return handler.close();
    },
  });

  return {
    /**
     * Whether the SDK would serve this POST as 2025-era traffic (the same
     * classification its handler runs). A request carrying the 2026-07-28
     * envelope claim never is, whatever else it holds: the common case is
     * answered without building a Fetch request to ask.
     */
    isLegacy: (req: IncomingMessage, body: unknown) =>
      claimsModernEnvelope(body) ? false : isLegacyRequest(toWebRequest(req), body),

    /** Answers one 2026-07-28 request; a client that goes away cancels it (and its run). */
    handle: (req: IncomingMessage, res: ServerResponse, body: unknown) =>
      serveFetch(req, res, (request) => handler.fetch(request, { parsedBody: body })),
  };
}

/**
 * Answers a Node request with a Fetch API handler's response, streaming its
 * body (a listen stream or a progress-bearing call is SSE: each event goes
 * out as it comes). The request's signal aborts when the client goes away.
 */
export async function serveFetch(
  req: IncomingMessage,
  res: ServerResponse,
  fetch: (request: Request) => Promise<Response>,
): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const response = await fetch(toWebRequest(req, gone.signal));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  res.flushHeaders();
  try {
    for await (const chunk of response.body) {
      if (gone.signal.aborted) break;
      res.write(chunk);
    }
  } finally {
    res.end();
  }
}

/** The Fetch API request the v2 SDK takes, from Node's (the body is passed apart, already read and parsed). */
export function toWebRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/mcp'}`, {
    method: req.method,
    headers,
    signal,
  });
}

/** The body is one JSON-RPC message whose `_meta` names a protocol version (the per-request envelope's claim). */
function claimsModernEnvelope(body: unknown): boolean {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return typeof meta === 'object' && meta !== null && typeof meta[PROTOCOL_VERSION_META_KEY] === 'string';
}
