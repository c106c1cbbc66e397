import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { NodePorts } from '../model/ports';
import type { RenderScope } from '../model/render';
import type { RunEvent, RunOutput, RunStatus, StepError } from '../model/run';
import type { NodeRegistry } from '../nodes/registry';
import { planFlow, type FlowPlan, type PlannedNode } from './flow-plan';
import { runNode, type NodeResult } from './node-runner';
import type { RetryPolicy } from './retry';
import type { ReusedStep, ReusePlan } from './reuse';

export interface ScheduleInput {
  runId: string;
  /** A validated flow: every node type is known and every config parsed. */
  flow: Flow;
  inputs: Record<string, unknown>;
  ports: NodePorts;
  registry: NodeRegistry;
  /**
   * The run's one controller: the caller aborts it to cancel (reason CANCELLED)
   * or on the run's time limit (RUN_TIMEOUT); the scheduler aborts it when the
   * run ends early, which stops whatever is still running.
   */
  controller: AbortController;
  concurrency: number;
  defaultTimeoutMs: number;
  retry: RetryPolicy;
  emit: (event: RunEvent) => void;
  /** A run from a node: the nodes that settle as an earlier run left them instead of running. */
  reuse?: ReusePlan;
}

export interface ScheduleResult {
  status: RunStatus;
  output?: RunOutput;
  error?: StepError & { nodeId?: string };
}

/**
 * Runs a flow's DAG. A node starts once every upstream node has settled and
 * at least one of its incoming edges is live (its source succeeded and took
 * that port); a node whose incoming edges are all dead is skipped. Independent
 * nodes run concurrently up to `concurrency`. An unhandled failure or a stop
 * node ends the run and aborts whatever is still running.
 */
export function schedule(input: ScheduleInput): Promise<ScheduleResult> {
  return new Promise((resolve) => new RunScheduler(input, planFlow(input.flow, input.registry), resolve).begin());
}

/** One run's state. A class, not closures: a one-node flow run thousands of times a second pays per allocation. */
class RunScheduler implements RenderScope {
  readonly inputs: Record<string, unknown>;
  private readonly remaining: Int32Array;
  private readonly liveInputs: Int32Array;
  private readonly results = new Map<string, { output?: unknown; error?: StepError }>();
  private readonly queue: number[] = [];
  private head = 0;
  private running = 0;
  private hasEnded = false;
  private hasProgress = false;
  private ending: ScheduleResult | undefined;
  private output: RunOutput | undefined;
  private readonly onAbort = () => this.abortedFromOutside();

  constructor(
    private readonly input: ScheduleInput,
    private readonly plan: FlowPlan,
    private readonly resolve: (result: ScheduleResult) => void,
  ) {
    this.inputs = input.inputs;
    this.remaining = plan.indegree.slice();
    this.liveInputs = new Int32Array(plan.nodes.length);
  }

  /** RenderScope: what an upstream node left. */
  node(id: string): { output?: unknown; error?: StepError } | undefined {
    return this.results.get(id);
  }

  begin(): void {
    const signal = this.input.controller.signal;
    if (signal.aborted) this.abortedFromOutside();
    else signal.addEventListener('abort', this.onAbort, { once: true });
    for (const index of this.plan.roots) this.queue.push(index);
    this.pump();
  }

  private pump(): void {
    while (!this.hasEnded && this.running < this.input.concurrency && this.head < this.queue.length) {
      this.start(this.queue[this.head++] as number);
    }
    if (this.running > 0 || (!this.hasEnded && this.head < this.queue.length)) return;
    this.input.controller.signal.removeEventListener('abort', this.onAbort);
    this.resolve(this.ending ?? { status: 'succeeded', ...(this.output ? { output: this.output } : {}) });
  }

  private start(index: number): void {
    const planned = this.plan.nodes[index] as PlannedNode;
    const { input } = this;
    const reused = input.reuse?.settled.get(index);
    if (reused) return this.settleReused(planned, reused, input.reuse?.runId as string);
    this.running++;
    void runNode({
      runId: input.runId,
      node: planned.node,
      definition: planned.definition,
      scope: this,
      ports: input.ports,
      runSignal: input.controller.signal,
      timeoutMs: planned.node.timeoutMs ?? input.defaultTimeoutMs,
      retry: input.retry,
      isHandled: planned.isHandled,
      emit: input.emit,
    }).then((result) => {
      this.running--;
      this.handle(planned, result);
      this.pump();
    });
  }

  private handle(planned: PlannedNode, result: NodeResult): void {
    const { node } = planned;
    const { runId, emit } = this.input;
    if (result.status === 'cancelled') {
      emit({ type: 'node.cancelled', runId, nodeId: node.id, at: Date.now() });
      return;
    }
    if (result.status === 'failed') {
      const error = { code: result.error.code, message: result.error.message };
      this.results.set(node.id, { error });
      if (planned.isHandled) return this.settle(planned, ERROR_PORT);
      return this.end(
        { status: this.hasProgress ? 'partial' : 'failed', error: { ...error, nodeId: node.id } },
        new FlowbenchError('CANCELLED', `the run failed at node "${node.id}"`),
      );
    }
    const { outcome } = result;
    if (outcome.kind === 'stop') {
      this.results.set(node.id, { output: { stopped: outcome.reason } });
      return this.end(
        { status: 'stopped', error: { code: 'STOPPED', message: outcome.reason, nodeId: node.id } },
        new FlowbenchError('CANCELLED', 'a stop node ended the run'),
      );
    }
    this.succeed(planned, outcome.output, outcome.ports ?? planned.dataPorts);
  }

  /** A node's output, computed now or reused from an earlier run, counted as the run's progress. */
  private succeed(planned: PlannedNode, output: unknown, ports: readonly string[]): void {
    this.results.set(planned.node.id, { output });
    const { definition } = planned;
    if (!definition.isEntry) this.hasProgress = true;
    if (definition.isResult) this.output = output as RunOutput;
    this.settle(planned, ports);
  }

  /** A node outside a run from a node: it settles at once as the earlier run `fromRunId` left it. */
  private settleReused(planned: PlannedNode, reused: ReusedStep, fromRunId: string): void {
    const { runId, emit } = this.input;
    const nodeId = planned.node.id;
    const at = Date.now();
    if (reused.kind === 'skipped') {
      emit({ type: 'node.skipped', runId, nodeId, at });
      return this.settle(planned, undefined);
    }
    if (reused.kind === 'error') {
      this.results.set(nodeId, { error: reused.error });
      emit({
        type: 'node.failed',
        runId,
        nodeId,
        at,
        attempt: 0,
        error: reused.error,
        willRetry: false,
        isHandled: true,
      });
      return this.settle(planned, ERROR_PORT);
    }
    const { output } = reused;
    emit({ type: 'node.finished', runId, nodeId, at, durationMs: 0, attempts: 0, output, reusedFrom: fromRunId });
    this.succeed(planned, output, planned.definition.portsFor?.(output) ?? planned.dataPorts);
  }

  /** Counts the node as settled for everything downstream; `livePorts` are the ports it took. */
  private settle(planned: PlannedNode, livePorts: readonly string[] | undefined): void {
    for (const edge of planned.outgoing) {
      const target = edge.target;
      const left = --this.remaining[target]!;
      if (livePorts?.includes(edge.sourcePort)) this.liveInputs[target]!++;
      if (left === 0) {
        if (this.liveInputs[target]! > 0) this.queue.push(target);
        else this.skip(target);
      }
    }
  }

  private skip(index: number): void {
    if (this.hasEnded) return;
    const planned = this.plan.nodes[index] as PlannedNode;
    this.input.emit({ type: 'node.skipped', runId: this.input.runId, nodeId: planned.node.id, at: Date.now() });
    this.settle(planned, undefined);
  }

  private end(result: ScheduleResult, reason: FlowbenchError): void {
    if (this.hasEnded) return;
    this.hasEnded = true;
    this.ending = result;
    // Also fires onAbort; hasEnded makes that a no-op.
    this.input.controller.abort(reason);
  }

  private abortedFromOutside(): void {
    const reason = toFlowbenchError(this.input.controller.signal.reason);
    const status: RunStatus = reason.code === 'RUN_TIMEOUT' ? 'failed' : 'cancelled';
    this.end({ status, error: { code: reason.code, message: reason.message } }, reason);
  }
}

const ERROR_PORT: readonly string[] = ['error'];
