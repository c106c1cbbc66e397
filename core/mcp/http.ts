import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpHost } from './mcp-host';
import { createLegacyServer } from './legacy-server';
import { createModernHttp } from './modern-http';
import { BodyTooLarge, readBody } from './read-body';
import { invalidRequest, invalidResponseAsError, isResponseShaped, messageProblem, parseError } from './jsonrpc-errors';
import { markOpenEnded } from './open-ended';

/**
 * A client's response to a request of the session's (an ask node's
 * elicitation/create) that the SDK would refuse with a 400, leaving that
 * request waiting, becomes the error response that settles it (see
 * invalidResponseAsError); anything else is passed on as it came.
 */
function settlingResponse(body: unknown): unknown {
  if (JSONRPCMessageSchema.safeParse(body).success) return body;
  return invalidResponseAsError(body) ?? body;
}

/** Request bodies above this are refused before parsing (tool arguments themselves are limited to 1 MB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A session no request has used for this long is closed; its client initializes again. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Sessions kept at most; a new one beyond this closes the one idle longest. */
export const MAX_SESSIONS = 1000;

export interface McpHttpOptions {
  /** The bearer token clients must send; undefined only when the user turned auth off. */
  token: string | undefined;
  idleMs?: number;
  maxSessions?: number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function hasToken(req: IncomingMessage, wanted: Buffer): boolean {
  // The scheme is case-insensitive (RFC 9110): `bearer` and `BEARER` are Bearer.
  const given = Buffer.from(/^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Streamable HTTP for `/mcp`, both revisions on one endpoint: 2026-07-28
 * requests (per-request envelope, no session) go to the v2 SDK's handler;
 * 2025-11-25 ones get one transport and protocol server per session, created
 * by an initialize request and found again by its Mcp-Session-Id.
 */
export function createMcpHttpHandler(host: McpHost, options: McpHttpOptions) {
  const modern = createModernHttp(host);
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const token = options.token !== undefined ? Buffer.from(options.token) : undefined;
  // Insertion order is use order: a session is moved to the end each time it is used.
  const sessions = new Map<string, Session>();
  const close = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close().catch(() => undefined);
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastSeen > idleMs) close(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  const use = (id: string): StreamableHTTPServerTransport | undefined => {
    const session = sessions.get(id);
    if (!session) return undefined;
    // Used last, so it goes to the end of the map (the order in which a full map closes sessions).
    sessions.delete(id);
    session.lastSeen = Date.now();
    sessions.set(id, session);
    return session.transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (token !== undefined && !hasToken(req, token)) {
      return sendJsonRpcError(res, 401, 'missing or wrong bearer token (see `flowbench mcp-config`)', {
        'www-authenticate': 'Bearer realm="flowbench"',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? use(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!existing)
        return sendJsonRpcError(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'missing Mcp-Session-Id');
      return existing.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendJsonRpcError(res, 413, 'body too large');
      if (error instanceof SyntaxError) return sendJson(res, 400, parseError('the body is not JSON'));
      return sendJsonRpcError(res, 400, (error as Error).message);
    }
    // A response is never answered with an error; a broken one settles the request it answers.
    if (existing && isResponseShaped(body)) return existing.handleRequest(req, res, settlingResponse(body));
    // Batches (an array) are the SDKs' to accept or refuse.
    const problem = Array.isArray(body) ? undefined : messageProblem(body);
    if (problem) return sendJson(res, 400, invalidRequest(body, problem));
    if (existing) return existing.handleRequest(req, res, body);
    if (!sessionId && !(await modern.isLegacy(req, body))) {
      markOpenEnded(res, body);
      return modern.handle(req, res, body);
    }
    if (sessionId) return sendJsonRpcError(res, 404, 'unknown session; initialize again');
    if (!isInitializeRequest(body))
      return sendJsonRpcError(res, 400, 'the first request of a session must be initialize');

    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        // Full: the session used least recently makes room (it is first in the map).
        for (const oldest of sessions.keys()) {
          if (sessions.size < maxSessions) break;
          close(oldest);
        }
        sessions.set(id, { transport, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createLegacyServer(host, { runAfterHeaders: true }).connect(transport);
    await transport.handleRequest(req, res, body);
  };
  // A getter, not a copy: Object.assign would read it once.
  return Object.defineProperty(handle, 'sessionCount', { get: () => sessions.size }) as typeof handle & {
    readonly sessionCount: number;
  };
}
