import { FlowbenchError, isRetryable, toFlowbenchError } from '../model/errors';
import type { FlowNode } from '../model/flow';
import type { LlmPort } from '../model/llm';
import type { NodePorts } from '../model/ports';
import type { ToolCallRecord } from '../model/tools';
import { renderTemplate, resolveTemplateValue, type RenderScope } from '../model/render';
import type { RunEvent } from '../model/run';
import type { NodeContext, NodeDefinition, NodeOutcome, StepDetails } from '../nodes/define-node';
import { runForEach } from './for-each';
import { backoffDelay, sleep, type RetryPolicy } from './retry';
import { sharedController, type RunCancellation } from './run-cancellation';

export type NodeResult =
  { status: 'succeeded'; outcome: NodeOutcome } | { status: 'failed'; error: FlowbenchError } | { status: 'cancelled' };

export interface NodeRunInput {
  runId: string;
  node: FlowNode;
  definition: NodeDefinition<Record<string, unknown>>;
  scope: RenderScope;
  ports: NodePorts;
  cancellation: RunCancellation;
  timeoutMs: number;
  retry: RetryPolicy;
  /** True when the node's error port is connected, so a failure continues the run. */
  isHandled: boolean;
  /** The node's pass of a loop (1 outside loops); events carry it from the second on. */
  iteration: number;
  emit: (event: RunEvent) => void;
}

/** Settles when the signal aborts, so a node that ignores its signal still ends on time. */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(toFlowbenchError(signal.reason));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/** Runs one node: its attempts, each under the node's time limit, with backoff between them. */
export async function runNode(input: NodeRunInput): Promise<NodeResult> {
  const { node, definition, runId, emit } = input;
  const pass = input.iteration > 1 ? { iteration: input.iteration } : undefined;
  const maxAttempts = node.maxAttempts ?? 1;
  const started = Date.now();
  /** Errors of the attempts that were retried, for the step record. */
  const retries: { code: string; message: string }[] = [];
  for (let attempt = 1; ; attempt++) {
    if (input.cancellation.aborted) return { status: 'cancelled' };
    emit({ type: 'node.started', runId, nodeId: node.id, attempt, at: Date.now(), ...pass });
    const details: StepDetails = {};
    const used: Record<string, unknown> = {};
    const guard = new AttemptGuard(
      input.cancellation,
      () =>
        new FlowbenchError('NODE_TIMEOUT', `node "${node.id}" took longer than ${input.timeoutMs} ms`, {
          nodeId: node.id,
          timeoutMs: input.timeoutMs,
        }),
    );
    try {
      if (!definition.execute) {
        throw new FlowbenchError(
          'NODE_NOT_RUNNABLE',
          `${definition.label} nodes cannot run in this build yet (node "${node.id}")`,
          { nodeId: node.id },
        );
      }
      const execute = definition.execute;
      const outcome = await guard.settle(
        node.forEach
          ? runForEach(
              { ...node, forEach: node.forEach },
              input.scope,
              used,
              details,
              // Items run side by side: their tokens would interleave, so they are not streamed.
              (scope, mine) =>
                execute(
                  new RunContext(
                    { ...input, scope, ports: { ...input.ports, streamsTokens: false } },
                    guard,
                    mine,
                    used,
                  ),
                  node.config,
                ),
              (reason) => guard.abort(reason),
              {
                maxAttempts,
                wait: (tried) => sleep(backoffDelay(tried, input.retry), guard.signal),
                retried: (failure) => retries.push(failure),
              },
            )
          : execute(new RunContext(input, guard, details, used), node.config),
        input.timeoutMs,
      );
      emit({
        type: 'node.finished',
        runId,
        nodeId: node.id,
        at: Date.now(),
        ...pass,
        durationMs: Date.now() - started,
        attempts: attempt,
        input: details.input ?? used,
        output: outcome.kind === 'stop' ? { stopped: outcome.reason } : outcome.output,
        ...(details.usage ? { usage: details.usage } : {}),
        ...(details.messages ? { messages: details.messages } : {}),
        ...(retries.length > 0 ? { retries } : {}),
        ...(details.toolCalls ? { toolCalls: details.toolCalls } : {}),
        ...(details.childRunId ? { childRunId: details.childRunId } : {}),
        ...(details.warnings ? { warnings: details.warnings } : {}),
      });
      return { status: 'succeeded', outcome };
    } catch (thrown) {
      if (input.cancellation.aborted) return { status: 'cancelled' };
      const error = toFlowbenchError(thrown);
      // A node that runs for each item retried each failed item itself: running all of them again would repeat those that succeeded.
      const willRetry = attempt < maxAttempts && isRetryable(error) && !node.forEach;
      emit({
        type: 'node.failed',
        runId,
        nodeId: node.id,
        at: Date.now(),
        ...pass,
        attempt,
        error: { code: error.code, message: error.message },
        willRetry,
        isHandled: input.isHandled && !willRetry,
        input: details.input ?? used,
        ...(details.messages ? { messages: details.messages } : {}),
        ...(!willRetry && retries.length > 0 ? { retries } : {}),
        ...(details.toolCalls ? { toolCalls: details.toolCalls } : {}),
        ...(details.childRunId ? { childRunId: details.childRunId } : {}),
        ...(details.warnings ? { warnings: details.warnings } : {}),
      });
      if (!willRetry) return { status: 'failed', error };
      retries.push({ code: error.code, message: error.message });
      await sleep(backoffDelay(attempt, input.retry), input.cancellation.signal);
    } finally {
      guard.dispose();
    }
  }
}

/**
 * The signal and time limit of one attempt. Most nodes (templates, conditions)
 * finish synchronously and never look at their signal, so the controller and
 * the timer are only made for nodes that ask for the signal or return a promise.
 */
class AttemptGuard {
  private controller: AbortController | undefined;
  private stopForwarding: (() => void) | undefined;

  constructor(
    private readonly run: RunCancellation,
    private readonly timeoutError: () => FlowbenchError,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = (this.controller = sharedController());
      this.stopForwarding = this.run.onAbort(() => controller.abort(this.run.reason));
    }
    return this.controller.signal;
  }

  /** The node's result; a promise is raced against cancellation and the time limit. */
  async settle<T>(result: T | Promise<T>, timeoutMs: number): Promise<T> {
    if (!(result instanceof Promise)) return result;
    const signal = this.signal;
    const timer = setTimeout(() => this.controller?.abort(this.timeoutError()), timeoutMs);
    try {
      return await Promise.race([result, abortion(signal)]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops what the attempt still has in flight (the other items of a node that runs for each). */
  abort(reason: unknown): void {
    if (!this.signal.aborted) this.controller?.abort(reason);
  }

  dispose(): void {
    this.stopForwarding?.();
  }
}

/** What a node's `execute` sees. A class: its methods are shared, not made again for every node run. */
class RunContext implements NodeContext {
  readonly nodeId: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly llm: LlmPort;
  readonly tools: NodePorts['tools'];
  readonly subflows: NodePorts['subflows'];
  readonly agents: NodePorts['agents'];
  readonly memory: NodePorts['memory'];
  readonly human: NodePorts['human'];
  readonly http: NodePorts['http'];
  readonly code: NodePorts['code'];
  readonly runId: string;
  readonly callers: readonly string[];
  readonly streamsTokens: boolean;

  constructor(
    private readonly input: NodeRunInput,
    private readonly guard: AttemptGuard,
    private readonly details: StepDetails,
    /** Every reference the node resolved: the step record's "resolved input". */
    private readonly used: Record<string, unknown>,
  ) {
    this.nodeId = input.node.id;
    this.inputs = input.scope.inputs;
    this.llm = input.ports.llm;
    this.tools = input.ports.tools;
    this.subflows = input.ports.subflows;
    this.agents = input.ports.agents;
    this.memory = input.ports.memory;
    this.human = input.ports.human;
    this.http = input.ports.http;
    this.code = input.ports.code;
    this.runId = input.runId;
    this.callers = input.ports.callers;
    this.streamsTokens = input.ports.streamsTokens;
  }

  get signal(): AbortSignal {
    return this.guard.signal;
  }

  render(template: string): string {
    return renderTemplate(template, this.input.scope, this.used);
  }

  wait(ms: number): Promise<void> {
    return sleep(ms, this.signal);
  }

  ran(nodeId: string): boolean {
    return this.input.scope.node(nodeId) !== undefined;
  }

  resolve(template: string): unknown {
    return resolveTemplateValue(template, this.input.scope, this.used);
  }

  emitToken(text: string): void {
    this.input.emit({ type: 'node.token', runId: this.input.runId, nodeId: this.nodeId, text });
  }

  report(more: StepDetails): void {
    Object.assign(this.details, more);
  }

  childSignal(): { signal: AbortSignal; abort(reason: unknown): void; dispose(): void } {
    const parent = this.signal;
    const controller = sharedController();
    const forward = () => controller.abort(parent.reason);
    if (parent.aborted) forward();
    else parent.addEventListener('abort', forward, { once: true });
    return {
      signal: controller.signal,
      abort: (reason) => controller.abort(reason),
      dispose: () => parent.removeEventListener('abort', forward),
    };
  }

  toolCall(call: ToolCallRecord): void {
    const calls = (this.details.toolCalls ??= []);
    const index = calls.findIndex((c) => c.id === call.id);
    if (index === -1) calls.push(call);
    else calls[index] = call;
    const { iteration } = this.input;
    this.input.emit({
      type: 'node.tool',
      runId: this.input.runId,
      nodeId: this.nodeId,
      call,
      ...(iteration > 1 ? { iteration } : {}),
    });
  }
}
