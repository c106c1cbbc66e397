import { isRecord } from '../model/is-record';

/** A JSON-RPC 2.0 error response, as Flowbench writes one before any SDK has seen the message. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** An error response to the request with this id (null when it has none that can be read). */
export function errorResponse(id: string | number | null, code: number, message: string): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** -32700: the text is no JSON, so nothing in it (not even an id) can be read. */
export function parseError(what: string): JsonRpcErrorResponse {
  return errorResponse(null, -32700, `Parse error: ${what}`);
}

/** -32600 for JSON that is no JSON-RPC message, with the message's id where it has a usable one (JSON-RPC 2.0 §5). */
export function invalidRequest(message: unknown, problem: string): JsonRpcErrorResponse {
  const id = isRecord(message) ? message.id : undefined;
  return errorResponse(
    typeof id === 'string' || typeof id === 'number' ? id : null,
    -32600,
    `Invalid Request: ${problem}`,
  );
}

/** Shaped as a response (no method; a result or an error): JSON-RPC never answers one, however broken. */
export function isResponseShaped(message: unknown): boolean {
  return isRecord(message) && !('method' in message) && ('result' in message || 'error' in message);
}

/**
 * What keeps a parsed message from being JSON-RPC, for the common cases, said
 * plainly; undefined when none of them applies. Cheap (a few field checks), so
 * every HTTP request is checked before the SDKs, which answer these with a
 * -32700 and no id (the v1 HTTP transport) or not at all (both stdio ones).
 */
export function messageProblem(message: unknown): string | undefined {
  if (!isRecord(message)) return 'a message is a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message && typeof message.method !== 'string') return 'method must be a string';
  if ('params' in message && !isRecord(message.params)) return 'params must be an object when given';
  const params = message.params as Record<string, unknown> | undefined;
  if (params && '_meta' in params && !isRecord(params._meta)) return 'params._meta must be an object';
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (
    meta &&
    'progressToken' in meta &&
    typeof meta.progressToken !== 'string' &&
    typeof meta.progressToken !== 'number'
  )
    return 'params._meta.progressToken must be a string or a number';
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number')
    return 'id must be a string or a number';
  return undefined;
}
