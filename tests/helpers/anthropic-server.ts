import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  listenOnLoopback,
  recordRequest,
  type OpenAiServer,
  type RecordedRequest,
  type Reply,
  type ReplyFn,
} from './openai-server';

/** A test server of Anthropic's Messages API: the same shape as the OpenAI-compatible one, for the same tests. */
export type AnthropicServer = OpenAiServer;

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

/** The answer's content blocks: its text, then its tool calls, as Claude answers. */
function blocksOf(answer: Reply, index: number): Block[] {
  const text = answer.content ?? answer.chunks?.join('') ?? '';
  return [
    ...(text !== '' || !answer.toolCalls?.length ? [{ type: 'text' as const, text }] : []),
    ...(answer.toolCalls ?? []).map((call, i) => ({
      type: 'tool_use' as const,
      id: call.id ?? `toolu_${index}_${i}`,
      name: call.name,
      input: typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as unknown) : call.arguments,
    })),
  ];
}

/** The answer as Claude streams it: server-sent events from message_start to message_stop. */
function streamed(res: ServerResponse, answer: Reply, blocks: Block[], message: Record<string, unknown>): void {
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = message.usage as { input_tokens: number; output_tokens: number };
  event('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'text') {
      event('content_block_start', { index: i, content_block: { type: 'text', text: '' } });
      for (const piece of answer.chunks ?? [block.text]) {
        event('content_block_delta', { index: i, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      event('content_block_start', { index: i, content_block: { ...block, input: {} } });
      event('content_block_delta', {
        index: i,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    event('content_block_stop', { index: i });
  }
  event('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event('message_stop', {});
  res.end();
}

/**
 * A real HTTP server on 127.0.0.1 speaking Anthropic's Messages API (POST
 * /v1/messages, streamed or not, text and tool_use blocks), so that the
 * `anthropic` provider kind runs the AI SDK's Anthropic code against it.
 * Replies take the OpenAI test server's `Reply` (content, chunks, tool calls,
 * status, usage as prompt and completion tokens).
 */
export async function startAnthropicServer(reply: ReplyFn = () => ({ content: 'ok' })): Promise<AnthropicServer> {
  const requests: RecordedRequest[] = [];
  const state: AnthropicServer = { url: '', requests, reply, close: () => Promise.resolve() };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += (chunk as Buffer).toString();
    const { recorded, index } = recordRequest(requests, req, res, raw);
    const answer = await state.reply(recorded, index);
    const status = answer.status ?? 200;
    if (answer.body !== undefined || status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        answer.body ??
          JSON.stringify({ type: 'error', error: { type: 'api_error', message: `test server says ${status}` } }),
      );
      return;
    }
    const blocks = blocksOf(answer, index);
    const usage = answer.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    const message = {
      id: `msg_${index}`,
      type: 'message',
      role: 'assistant',
      model: recorded.body.model ?? 'claude-test',
      stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
    };
    if (!recorded.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...message, content: blocks }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    streamed(res, answer, blocks, message);
  };

  Object.assign(state, await listenOnLoopback(handle));
  return state;
}
