import type { AbortSignalLike } from './abort';

/** The methods an HTTP request node sends. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A larger response fails the node (HTTP_RESPONSE_TOO_LARGE): a run record keeps each step's output. */
export const MAX_HTTP_RESPONSE_BYTES = 10 * 1024 * 1024;

/** One request an HTTP request node sends, its references filled in. */
export interface HttpRequestSpec {
  nodeId: string;
  method: string;
  url: string;
  headers: readonly { name: string; value: string }[];
  body?: string;
  /** A form in place of `body`, encoded as it is sent (with the Content-Type that names it). */
  form?: HttpForm;
  signal: AbortSignalLike;
}

/** A form body (n8n's Form Urlencoded and Form-Data): text fields, in their order, a name possibly twice. */
export interface HttpForm {
  /** multipart/form-data when true, application/x-www-form-urlencoded otherwise. */
  multipart: boolean;
  fields: readonly { name: string; value: string }[];
}

/** What came back: the body as text (the node reads JSON out of it). */
export interface HttpReply {
  /** The URL as sent, after its checks. */
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * How HTTP request nodes reach the network: the engine's (core/engine/fetch-http.ts)
 * checks the URL and headers (HTTP_REQUEST_INVALID), sends, and reads at most
 * MAX_HTTP_RESPONSE_BYTES; nobody there is HTTP_UNREACHABLE.
 */
export interface HttpPort {
  send(request: HttpRequestSpec): Promise<HttpReply>;
}
