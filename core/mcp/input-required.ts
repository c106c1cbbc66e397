import { randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { elicitationParams, noHumanInput, type AskAnswer, type AskRequest } from '../model/human-input';
import type { McpToolResult } from '../model/tool-result';
import { toFlowbenchError } from '../model/errors';
import type { CallContext } from './call-context';

interface Question {
  /** The key of its input request, unique within the conversation. */
  key: string;
  request: AskRequest;
  answer(answer: AskAnswer): void;
}

/**
 * One tools/call of a 2026-07-28 client, across the retries its ask nodes
 * cause: the run outlives each request, pauses on a question, and goes on
 * when the retried request brings the answer. The run's signal is the
 * conversation's, aborted when a request waiting on it is cancelled or its
 * client goes away; a paused run nobody comes back to ends at its ask node's
 * time limit (and is stored like any other).
 */
class Conversation {
  readonly key = randomBytes(24).toString('base64url');
  readonly controller = new AbortController();
  done!: Promise<McpToolResult>;
  /** The request now waiting on the run, for its progress notifications and capabilities. */
  current: ServerContext | undefined;
  private question: Question | undefined;
  private asked = false;
  private onQuestion: (() => void) | undefined;
  private rounds = 0;

  constructor(readonly tool: string) {}

  /** The call context the run sees: notifications go to whichever request waits now. */
  context(base: CallContext): CallContext {
    return {
      ...base,
      signal: this.controller.signal,
      notify: (notification) => this.current?.mcpReq.notify(notification) ?? Promise.resolve(),
      human: {
        ask: (request, signal) => {
          if (!canElicit(this.current)) {
            return noHumanInput('the MCP client does not support elicitation (form mode)').ask(request, signal);
          }
          return new Promise<AskAnswer>((resolve, reject) => {
            const abort = () => reject(toFlowbenchError(signal.reason));
            if (signal.aborted) return abort();
            signal.addEventListener('abort', abort, { once: true });
            this.question = {
              key: `ask-${++this.rounds}`,
              request,
              answer: (answer) => {
                signal.removeEventListener('abort', abort);
                resolve(answer);
              },
            };
            this.asked = false;
            this.onQuestion?.();
          });
        },
      },
    };
  }

  /** Resolves with the question the run asks next and has not yet sent. */
  nextQuestion(): Promise<Question> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.question && !this.asked) {
          this.asked = true;
          this.onQuestion = undefined;
          resolve(this.question);
        }
      };
      this.onQuestion = check;
      check();
    });
  }

  /** Hands the retried request's answer to the waiting question; false when it carries none for it. */
  answer(responses: Record<string, unknown> | undefined): boolean {
    const question = this.question;
    if (!question) return true;
    const view = inputResponse(responses, question.key);
    if (view.kind !== 'elicit') {
      this.asked = false; // asked again
      return false;
    }
    this.question = undefined;
    question.answer(
      view.action === 'accept' ? { action: 'accept', content: view.content ?? {} } : { action: view.action },
    );
    return true;
  }
}

/** The 2026-07-28 client declared form-mode elicitation in this request's envelope. */
function canElicit(ctx: ServerContext | undefined): boolean {
  const capabilities = ctx?.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as
    { elicitation?: { form?: object; url?: object } } | undefined;
  const elicitation = capabilities?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/**
 * Runs 2026-07-28 tool calls whose flows may ask a person: a question is
 * answered as an `input_required` result (an `elicitation/create` input
 * request, and an opaque, unguessable `requestState` naming the paused run),
 * and the client's retry with the answer resumes the run.
 */
export class PausedRuns {
  private readonly waiting = new Map<string, Conversation>();

  get size(): number {
    return this.waiting.size;
  }

  async call(
    ctx: ServerContext,
    tool: string,
    base: CallContext,
    start: (context: CallContext) => Promise<McpToolResult>,
  ): Promise<McpToolResult | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<string>();
    let conversation: Conversation;
    if (state === undefined) {
      conversation = new Conversation(tool);
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
    const cancel = () => conversation.controller.abort(ctx.mcpReq.signal.reason);
    ctx.mcpReq.signal.addEventListener('abort', cancel, { once: true });
    try {
      const next = await Promise.race([
        conversation.done.then((result) => ({ result })),
        conversation.nextQuestion().then((question) => ({ question })),
      ]);
      if ('result' in next) {
        this.waiting.delete(conversation.key);
        return next.result;
      }
      return this.ask(conversation, next.question);
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', cancel);
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
    return inputRequired({
      inputRequests: {
        [question.key]: { method: 'elicitation/create', params: elicitationParams(question.request) as never },
      },
      requestState: conversation.key,
    });
  }
}
