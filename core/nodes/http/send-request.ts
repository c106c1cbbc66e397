import { FlowbenchError } from '../../model/errors';
import type { HttpForm, HttpReply } from '../../model/http';
import { HIDDEN, hideSecrets } from '../../model/secrets';
import type { NodeContext, NodeOutcome } from '../define-node';

/** Header and form field names whose values a run record keeps as •••: what a key or a session is sent in. */
const SECRET_NAME = /auth|key|token|secret|password|cookie|session/i;
/** Named like a key and holding none: a request's own id (Stripe's Idempotency-Key), a WebSocket handshake's nonce. */
const PLAIN_NAME = /^(x-)?idempotency-key$|^sec-websocket-key$/i;

/** True for a header or form field named like a credential (Authorization, X-Api-Key, client_secret, password). */
export const namesSecret = (name: string): boolean => SECRET_NAME.test(name) && !PLAIN_NAME.test(name.trim());

export interface HttpRequest {
  method: string;
  url: string;
  headers: { name: string; value: string }[];
  body?: string;
  /** A form body in place of `body`: its fields, each encoded when sent. */
  form?: HttpForm;
  failOnStatus: boolean;
  output: 'body' | 'response';
  /** Texts sent that the run cannot know as secrets (Basic auth's encoded credentials): an answer echoing one shows •••. */
  hiddenInReply?: readonly string[];
}

// A global in browsers and in Node since 16; the isomorphic part's types (ES2022, no DOM) leave it out.
declare function btoa(latin1: string): string;

/** What Basic auth sends after `Basic ` (curl's -u): `user:password` in UTF-8, in base64. */
export function basicCredentials(user: string, password: string): string {
  const bytes = encodeURIComponent(`${user}:${password}`).replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  return btoa(bytes);
}

const isJsonText = (text: string) => {
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
};

/** JSON when the response says so and it parses; the text as it came otherwise. */
function bodyValue(reply: HttpReply): unknown {
  const type = Object.entries(reply.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (!/json/i.test(type)) return reply.body;
  try {
    return JSON.parse(reply.body) as unknown;
  } catch {
    return reply.body;
  }
}

/** A form's fields for the step record, a name given twice as a list; a field named like a secret as •••. */
function recordedForm(form: HttpForm): Record<string, unknown> {
  // A Map, then entries: a field named __proto__ is a field like any other.
  const fields = new Map<string, string[]>();
  for (const { name, value } of form.fields) {
    fields.set(name, [...(fields.get(name) ?? []), namesSecret(name) ? HIDDEN : value]);
  }
  return Object.fromEntries([...fields].map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

/**
 * Sends the node's request through the run's HTTP port. A body goes as
 * application/json when it is JSON, text/plain otherwise, unless a header
 * says, a form as the port encodes it; a status that is not 2xx is
 * HTTP_STATUS when the node fails on it (retried for 429 and 5xx, see
 * isRetryable). The step's input keeps what was sent, the values of headers
 * and form fields named like secrets as •••.
 */
export async function sendRequest(ctx: NodeContext, request: HttpRequest): Promise<NodeOutcome> {
  const headers = [...request.headers];
  if (request.body !== undefined && !request.form && !headers.some((h) => h.name.toLowerCase() === 'content-type')) {
    headers.push({
      name: 'Content-Type',
      value: isJsonText(request.body) ? 'application/json' : 'text/plain; charset=utf-8',
    });
  }
  // A form's Content-Type is set as it is sent (a multipart one names the boundary made then); the record says which.
  const recordedType = request.form
    ? { 'Content-Type': request.form.multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded' }
    : {};
  ctx.report({
    input: {
      method: request.method,
      url: request.url,
      headers: {
        ...Object.fromEntries(headers.map(({ name, value }) => [name, namesSecret(name) ? HIDDEN : value])),
        ...recordedType,
      },
      ...(request.form
        ? { form: recordedForm(request.form) }
        : request.body !== undefined
          ? { body: request.body }
          : {}),
    },
  });
  const reply = await ctx.http.send({
    nodeId: ctx.nodeId,
    method: request.method,
    url: request.url,
    headers,
    ...(request.form ? { form: request.form } : request.body !== undefined ? { body: request.body } : {}),
    signal: ctx.signal,
  });
  if (request.failOnStatus && (reply.status < 200 || reply.status > 299)) {
    const excerpt = reply.body.replace(/\s+/g, ' ').slice(0, 200);
    throw new FlowbenchError(
      'HTTP_STATUS',
      `node "${ctx.nodeId}": ${request.method} ${reply.url} answered ${reply.status} ${reply.statusText}${excerpt ? `: ${excerpt}` : ''}`,
      { nodeId: ctx.nodeId, status: reply.status },
    );
  }
  const hidden = request.hiddenInReply ?? [];
  const hide = <T>(value: T): T => (hidden.length === 0 ? value : hideSecrets(value, hidden));
  const body = hide(bodyValue(reply));
  if (request.output === 'body') return { kind: 'output', output: body };
  return { kind: 'output', output: { status: reply.status, headers: hide(reply.headers), body } };
}
