import type { Flow } from '../model/flow';
import type { HumanInputPort } from '../model/human-input';
import type { RunEventListener } from '../model/run';
import { validTraceparent } from '../model/trace-context';
import { VIEW_MIME_TYPE } from './view-html';

/**
 * What a tool call needs from the protocol layer, whichever revision (and SDK
 * generation) carries it: the 2025-11-25 server on the v1 SDK and the
 * 2026-07-28 server on the v2 SDK both reduce their request context to this.
 */
export interface CallContext {
  /** Aborted when the client cancels (or, over HTTP on 2026-07-28, disconnects). */
  signal: AbortSignal;
  /** The request's `_meta`: progress token, traceparent. */
  meta?: Record<string, unknown>;
  /** The client's name, from initialize or the request's envelope. */
  client?: string;
  /** Sends a notification tied to this request (progress). */
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  /** Asks the person at the client (ask nodes); undefined when the client cannot be asked. */
  human?: HumanInputPort;
  /**
   * Asks within a 2025-11-25 task: the question waits in the task's queue,
   * the task shows `input_required`, and the client's `tasks/result` carries
   * it; undefined when the client cannot be asked.
   */
  humanInTask?: (taskId: string) => HumanInputPort;
  /** The client declared that it shows MCP Apps views (see `showsViews`). */
  showsViews: boolean;
}

/** The MCP Apps extension's identifier in capabilities. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * Whether a client declared that it shows MCP Apps views of the kind
 * Flowbench's are, in either revision's capabilities. The MCP Apps
 * specification has hosts declare it and servers check it before offering
 * views: a client that did not gets its tools without a view and results
 * without the run view's data, which only a view reads (the model's content
 * is the same either way).
 */
export function showsViews(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  const ui = capabilities?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
}

/**
 * Whether declared elicitation capabilities include form mode, in either
 * revision's declaration: an empty object means form mode (the default).
 */
export function elicitsForms(elicitation: { form?: object; url?: object } | undefined): boolean {
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Who started a run: an MCP client, by its name, with the trace context it sent (if well formed). */
export function callerOf(ctx: CallContext): { trigger: 'mcp'; client?: string; traceparent?: string } {
  const traceparent = validTraceparent(ctx.meta?.traceparent);
  return { trigger: 'mcp', ...(ctx.client ? { client: ctx.client } : {}), ...(traceparent ? { traceparent } : {}) };
}

/** Calls `onDone` with the count each time a node ends for good (finished, skipped, or failed with no retry left). */
export function nodesDone(onDone: (done: number, nodeId: string, verb: string) => void): RunEventListener {
  let done = 0;
  return (event) => {
    if (
      event.type !== 'node.finished' &&
      event.type !== 'node.skipped' &&
      !(event.type === 'node.failed' && !event.willRetry)
    )
      return;
    done++;
    onDone(
      done,
      event.nodeId,
      event.type === 'node.finished' ? 'finished' : event.type === 'node.skipped' ? 'skipped' : 'failed',
    );
  };
}

/**
 * One progress notification per finished node, when the caller sent a
 * progress token. `sent` settles once every notification so far is written:
 * the result waits for it, because a notification that follows its result is
 * dropped (the v2 SDK writes notifications asynchronously).
 */
export function progressListeners(
  flow: Flow,
  ctx: CallContext,
): { listeners: RunEventListener[]; sent(): Promise<void> } {
  const token = ctx.meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return { listeners: [], sent: () => Promise.resolve() };
  const pending: Promise<void>[] = [];
  const listener = nodesDone((done, nodeId, verb) => {
    const notification = {
      method: 'notifications/progress',
      params: { progressToken: token, progress: done, total: flow.nodes.length, message: `${nodeId} ${verb}` },
    };
    pending.push(ctx.notify(notification).catch(() => undefined));
  });
  return { listeners: [listener], sent: () => Promise.all(pending).then(() => undefined) };
}
