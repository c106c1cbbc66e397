import { randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import { toFlowbenchError } from '../model/errors';
import { elicitationParams, noHumanInput, type AskAnswer, type AskRequest } from '../model/human-input';
import type { McpToolResult } from '../model/tool-result';
import { elicitsForms, type CallContext } from './call-context';

/** A question a paused run waits on. */
export interface Question {
  /** The key of its input request, unique within the conversation. */
  key: string;
  request: AskRequest;
  answer(answer: AskAnswer): void;
}

/**
 * One tools/call of a 2026-07-28 client, across the requests its ask nodes
 * cause (retries carrying input responses, or a task's tasks/update): the
 * run outlives each request, pauses on a question, and goes on when the
 * answer comes. The run's signal is the conversation's; a paused run nobody
 * comes back to ends at its ask node's time limit (and is stored like any other).
 */
export class Conversation {
  private ownKey: string | undefined;
  readonly controller = new AbortController();
  done!: Promise<McpToolResult>;
  /** The request now waiting on the run. */
  current: ServerContext | undefined;
  /** Where the run's notifications go: by default to the request waiting now. */
  notify: CallContext['notify'] = (notification) => this.current?.mcpReq.notify(notification) ?? Promise.resolve();
  private question: Question | undefined;
  private asked = false;
  private onQuestion: (() => void) | undefined;
  private rounds = 0;

  /** Unguessable: it is the only proof a later request belongs to this run (made when first needed). */
  get key(): string {
    this.ownKey ??= randomBytes(24).toString('base64url');
    return this.ownKey;
  }

  constructor(
    readonly tool: string,
    /** The client declared form-mode elicitation (in the envelope of the request that started the run). */
    private readonly canAsk: boolean,
  ) {}

  /** The call context the run sees. */
  context(base: CallContext): CallContext {
    return {
      ...base,
      signal: this.controller.signal,
      notify: (notification) => this.notify(notification),
      human: {
        ask: (request, signal) => {
          if (!this.canAsk) {
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

  /** Cancels the run if `signal` (a request waiting on it) aborts first; returns the undoing. */
  cancelWhenAborted(signal: AbortSignal): () => void {
    const cancel = () => this.controller.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    return () => signal.removeEventListener('abort', cancel);
  }

  /** Resolves with the question the run asks next and has not yet been sent. */
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

  /** Hands the client's answer to the waiting question; false when the responses carry none for it. */
  answer(responses: Record<string, unknown> | undefined): boolean {
    const question = this.question;
    if (!question) return true;
    const view = inputResponse(responses, question.key);
    if (view.kind !== 'elicit') {
      this.asked = false; // to be asked again
      return false;
    }
    this.question = undefined;
    question.answer(
      view.action === 'accept' ? { action: 'accept', content: view.content ?? {} } : { action: view.action },
    );
    return true;
  }
}

/** The capabilities a 2026-07-28 request's envelope declares. */
export function clientCapabilities(
  ctx: ServerContext,
): { elicitation?: { form?: object; url?: object }; extensions?: Record<string, unknown> } | undefined {
  return ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never];
}

/** The client declared form-mode elicitation in this request's envelope (an empty object means form). */
export function canElicit(ctx: ServerContext): boolean {
  return elicitsForms(clientCapabilities(ctx)?.elicitation);
}

/** A question as the `elicitation/create` input request a result or a task carries. */
export const inputRequestsFor = (question: Question) => ({
  [question.key]: { method: 'elicitation/create' as const, params: elicitationParams(question.request) as never },
});
