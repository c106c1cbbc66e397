import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findMethod, MAX_IMPORT_TEXT } from '../api/contract';
import type { ApiHost } from './api-host';
import { httpStatusOf } from './http-status';
import { BodyTooLarge, readBody } from '../mcp/read-body';

/** API bodies may carry an imported file (10 MB) and some JSON around it. */
const MAX_API_BODY = MAX_IMPORT_TEXT + 1024 * 1024;

function sameToken(given: string | undefined, wanted: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

/**
 * The API over HTTP for `flowbench serve`: `POST /api/<service>/<method>` with
 * the arguments as JSON, and `GET /api/events` as server-sent events. Every
 * request carries the session token printed by `serve` (a header, or `session`
 * in the query for EventSource, which cannot send headers).
 */
export function createApiHttpHandler(host: ApiHost, sessionToken: string) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const token =
      (req.headers['x-flowbench-session'] as string | undefined) ?? url.searchParams.get('session') ?? undefined;
    if (!sameToken(token, sessionToken)) {
      return sendJson(res, 401, {
        ok: false,
        error: {
          code: 'SESSION_INVALID',
          message: "this page's session is not valid for this Flowbench; open the editor URL `flowbench serve` printed",
        },
      });
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      const unsubscribe = host.subscribe((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(keepAlive);
        unsubscribe();
      });
      return;
    }
    const match = /^\/api\/([a-zA-Z]+)\/([a-zA-Z]+)$/.exec(url.pathname);
    // `constructor`, `toString` and other names the contract does not list are no routes.
    if (!match || req.method !== 'POST' || !findMethod(match[1] ?? '', match[2] ?? ''))
      return sendJson(res, 404, {
        ok: false,
        error: { code: 'USAGE_ERROR', message: `no API route ${req.method} ${url.pathname}` },
      });
    let args: unknown;
    try {
      const body = await readBody(req, MAX_API_BODY);
      args = body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as unknown);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return sendJson(res, 413, { ok: false, error: { code: 'FILE_TOO_LARGE', message: error.message } });
      return sendJson(res, 400, {
        ok: false,
        error: { code: 'INVALID_JSON', message: 'the request body is not JSON' },
      });
    }
    const clientId = req.headers['x-flowbench-client'];
    const reply = await host.invoke(
      match[1] ?? '',
      match[2] ?? '',
      args,
      typeof clientId === 'string' ? { clientId, transport: 'http' } : { transport: 'http' },
    );
    sendJson(res, reply.ok ? 200 : httpStatusOf(reply.error.code), reply);
  };
}
