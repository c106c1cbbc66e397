import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type RequestId = string | number;

/**
 * `fetch` for a Streamable HTTP server's transport that watches each request
 * answered with an event stream. A stream that ends, or breaks, without the
 * answer to its request and without an event id to resume from leaves the
 * MCP SDK waiting for that answer until the call's time limit (a minute by
 * default), which then said the tool "took longer than" it: a server that
 * crashed mid-call, or closed the stream on an error of its own. `unanswered`
 * is told the request's id at once, to settle it.
 */
export function answerStreamWatch(unanswered: (id: RequestId) => void, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const id = init?.method === 'POST' ? requestIdOf(init.body) : undefined;
    const isStream = response.headers.get('content-type')?.includes('text/event-stream') === true;
    if (id === undefined || !isStream || !response.body) return response;
    const [watched, given] = response.body.tee();
    void watch(watched, id).then((answered) => answered || unanswered(id));
    return new Response(given, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The id of the one request a POST body sends; none for a notification, a response or a batch. */
function requestIdOf(body: RequestInit['body']): RequestId | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    const { id } = message;
    return typeof message.method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads an event stream to its end: true when it carried the answer to `id`
 * or an event id (the SDK resumes such a stream, and the answer may come on
 * the resumed one), false when it ended or broke without either.
 */
async function watch(stream: ReadableStream<Uint8Array>, id: RequestId): Promise<boolean> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('id:') && line.slice(3).trim() !== '') return true;
        if (line.startsWith('data:') && answers(line.slice(5), id)) return true;
      }
    }
  } catch {
    return false;
  } finally {
    // The rest is the SDK's to read: this copy need not be drained.
    reader.cancel().catch(() => undefined);
  }
}

function answers(data: string, id: RequestId): boolean {
  try {
    const message = JSON.parse(data) as JSONRPCMessage & { id?: unknown; method?: unknown };
    return message.id === id && message.method === undefined;
  } catch {
    return false;
  }
}
