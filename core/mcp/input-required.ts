import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpToolResult } from '../model/tool-result';
import type { CallContext } from './call-context';
import { canElicit, Conversation, inputRequestsFor, type Question } from './conversation';

/**
 * Runs 2026-07-28 tool calls whose flows may ask a person: a question is
 * answered as an `input_required` result (an `elicitation/create` input
 * request, and an opaque, unguessable `requestState` naming the paused run),
 * and the client's retry with the answer resumes the run.
 */
export class PausedRuns {
  private readonly waiting = new Map<string, Conversation>();

  /** The server stops: paused runs are cancelled (and stored so). */
  close(): void {
    for (const conversation of this.waiting.values()) conversation.controller.abort('the server is stopping');
  }

  async call(
    ctx: ServerContext,
    tool: string,
    base: CallContext,
    start: (context: CallContext) => Promise<McpToolResult>,
    /** The tool's run may ask a person (see McpHost.asksPeople). */
    asksPeople: boolean,
  ): Promise<McpToolResult | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<string>();
    // Nothing can pause: the run goes as on the 2025 revision, on the request's own signal, with no
    // conversation to keep (that costs 6–10 µs, 5 % of a one-node call over stdio).
    if (state === undefined && !asksPeople) return start(base);
    let conversation: Conversation;
    if (state === undefined) {
      conversation = new Conversation(tool, canElicit(ctx));
      conversation.current = ctx;
      conversation.done = start(conversation.context(base));
    } else {
      const paused = typeof state === 'string' ? this.waiting.get(state) : undefined;
      if (!paused || paused.tool !== tool) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `requestState names no paused run of ${tool}: it ended (its ask node's time limit passed, or it was cancelled) or was never this server's; call the tool again`,
        );
      }
      conversation = paused;
      conversation.current = ctx;
      if (!conversation.answer(ctx.mcpReq.inputResponses))
        return this.ask(conversation, await conversation.nextQuestion());
    }
    const release = conversation.cancelWhenAborted(ctx.mcpReq.signal);
    try {
      const next = await Promise.race([
        conversation.done.then((result) => ({ result })),
        conversation.nextQuestion().then((question) => ({ question })),
      ]);
      if ('result' in next) {
        if (state !== undefined) this.waiting.delete(conversation.key);
        return next.result;
      }
      return this.ask(conversation, next.question);
    } finally {
      release();
      conversation.current = undefined;
    }
  }

  private ask(conversation: Conversation, question: Question): InputRequiredResult {
    if (!this.waiting.has(conversation.key)) {
      this.waiting.set(conversation.key, conversation);
      // A run that ends while nobody waits on it (its ask timed out) is forgotten: it is stored already.
      void conversation.done.finally(() => {
        if (!conversation.current) this.waiting.delete(conversation.key);
      });
    }
    return inputRequired({ inputRequests: inputRequestsFor(question), requestState: conversation.key });
  }
}
