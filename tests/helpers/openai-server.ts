import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the test server answers one chat completion request. */
export interface Reply {
  /** HTTP status; anything but 200 sends `body` (or a JSON error) instead of a completion. */
  status?: number;
  /** Milliseconds before the answer starts. */
  delayMs?: number;
  /** The completion text; streamed in `chunks` when the client asks for a stream. */
  content?: string;
  chunks?: string[];
  /** Milliseconds between streamed chunks, so a test can watch tokens arrive. */
  chunkDelayMs?: number;
  /** Awaited before streamed chunk `index` is sent: a test lets chunks out once it has seen the ones before (see `chunkGate`). */
  beforeChunk?: (index: number) => Promise<void>;
  /** Drops the connection after sending this many of `chunks`, as a provider that goes down mid-answer. */
  breakAfterChunks?: number;
  /** A raw body, sent as is (for malformed answers). */
  body?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Tool calls, as OpenAI's API answers them (finish_reason `tool_calls`); `arguments` is sent as JSON text. */
  toolCalls?: { name: string; arguments: unknown; id?: string }[];
  /** Why the answer ended, as OpenAI's API says it (`length`: at the token limit); `stop` (or `tool_calls`) unless given. */
  finishReason?: string;
}

/** The tool results the client sent back in a request (messages with role `tool`), oldest first. */
export function toolMessages(request: RecordedRequest): { toolCallId: string; content: string }[] {
  return (request.body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      toolCallId: String((m as { tool_call_id?: unknown }).tool_call_id),
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    }));
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; stream?: boolean; messages?: { role: string; content: unknown }[]; [key: string]: unknown };
  /** True when the client closed the connection before the answer ended. */
  wasAborted: boolean;
}

export type ReplyFn = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface OpenAiServer {
  /** Base URL including /v1, as provider settings take it. */
  url: string;
  requests: RecordedRequest[];
  reply: ReplyFn;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Streamed chunks let out one at a time by the test: `beforeChunk` waits until `release` was called
 * once more than the chunk's index. What a test watches arrive then stays on screen until it has
 * seen it, however slow the machine (a fixed delay between chunks can be stepped over under load).
 */
export function chunkGate(): { beforeChunk: (index: number) => Promise<void>; release: () => void } {
  let released = 0;
  const waiting: { index: number; resolve: () => void }[] = [];
  const settle = () => {
    for (const wait of waiting.filter((w) => w.index < released)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  return {
    beforeChunk: (index) =>
      new Promise<void>((resolve) => {
        waiting.push({ index, resolve });
        settle();
      }),
    release: () => {
      released += 1;
      settle();
    },
  };
}

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks:
 * POST /v1/chat/completions (streaming and not) and GET /v1/models.
 */
export async function startOpenAiServer(reply: ReplyFn = () => ({ content: 'ok' })): Promise<OpenAiServer> {
  const requests: RecordedRequest[] = [];
  const state: OpenAiServer = { url: '', requests, reply, close: () => Promise.resolve() };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk: Buffer) => (data += chunk.toString()));
      req.on('end', () => resolve(data));
    });
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [
            { id: 'test-model', object: 'model' },
            { id: 'other-model', object: 'model' },
          ],
        }),
      );
      return;
    }
    const { recorded, index } = recordRequest(requests, req, res, raw);
    const answer = await state.reply(recorded, index);
    if (answer.delayMs) await sleep(answer.delayMs);
    if (res.destroyed) return;
    const status = answer.status ?? 200;
    if (answer.body !== undefined || status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(answer.body ?? JSON.stringify({ error: { message: `test server says ${status}`, type: 'test_error' } }));
      return;
    }
    const content = answer.content ?? answer.chunks?.join('') ?? '';
    const usage = answer.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    const model = recorded.body.model ?? 'test-model';
    const toolCalls = (answer.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${index}_${i}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const finishReason = answer.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    if (!recorded.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
              finish_reason: finishReason,
            },
          ],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id: `chatcmpl-${index}`, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const [i, piece] of (answer.chunks ?? [content]).entries()) {
      if (i > 0 && answer.chunkDelayMs) await sleep(answer.chunkDelayMs);
      if (answer.beforeChunk) await answer.beforeChunk(i);
      if (res.destroyed) return;
      if (i === answer.breakAfterChunks) {
        // Let the chunks already written reach the client, then cut the connection.
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      res.write(chunk({ content: piece }, null));
    }
    for (const [i, call] of toolCalls.entries()) res.write(chunk({ tool_calls: [{ index: i, ...call }] }, null));
    res.write(chunk({}, finishReason));
    res.write(
      `data: ${JSON.stringify({ id: `chatcmpl-${index}`, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  };

  Object.assign(state, await listenOnLoopback(handle));
  return state;
}

/** Adds a request to the server's log (its body read as `raw`); noted as aborted if the client leaves before the answer ends. */
export function recordRequest(
  requests: RecordedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
): { recorded: RecordedRequest; index: number } {
  const recorded: RecordedRequest = {
    path: req.url ?? '',
    headers: req.headers,
    body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : {},
    wasAborted: false,
  };
  res.on('close', () => {
    if (!res.writableEnded) recorded.wasAborted = true;
  });
  return { recorded, index: requests.push(recorded) - 1 };
}

/** Serves `handle` on a free 127.0.0.1 port: its /v1 base URL, and a close that ends every connection. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 port with nothing listening on it, for "unreachable" tests. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
