import { isRecord } from '../model/is-record';

/** A JSON-RPC 2.0 error response, as Flowbench writes one before any SDK has seen the message. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
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

/** What keeps a message shaped as a response from being one, said plainly; undefined when none of the common cases applies. */
function responseProblem(message: Record<string, unknown>): string | undefined {
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('result' in message && 'error' in message) return 'it has both a result and an error';
  if ('result' in message) return isRecord(message.result) ? undefined : 'its result must be an object';
  const error = message.error;
  if (!isRecord(error)) return 'its error must be an object';
  if (!Number.isInteger(error.code)) return 'its error.code must be an integer';
  if (typeof error.message !== 'string') return 'its error.message must be a string';
  return undefined;
}

/**
 * A client's response that the SDK would not take (a result that is no
 * object, an error without a code), made an error response to the same
 * request for the SDK to settle that request with. Dropped, it left the
 * request Flowbench sent (an ask node's elicitation/create) waiting for an
 * answer that had come, and the tool call with it, until the node's time
 * limit. `data.invalidResponse` says what was wrong. Undefined where there is
 * no usable id: no request of ours can be the one answered.
 */
export function invalidResponseAsError(message: unknown): JsonRpcErrorResponse | undefined {
  if (!isResponseShaped(message)) return undefined;
  const response = message as Record<string, unknown>;
  const id = response.id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const problem = responseProblem(response) ?? 'it is no JSON-RPC response the MCP SDK takes';
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32600, message: `Invalid response: ${problem}`, data: { invalidResponse: problem } },
  };
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
