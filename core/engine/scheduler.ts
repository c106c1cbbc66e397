import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { NodePorts } from '../model/ports';
import type { RenderScope } from '../model/render';
import type { RunEvent, RunOutput, RunStatus, StepError } from '../model/run';
import type { NodeRegistry } from '../nodes/registry';
import { planFlow, type FlowPlan, type PlannedLoop, type PlannedNode } from './flow-plan';
import { runNode, type NodeResult } from './node-runner';
import type { RunCancellation } from './run-cancellation';
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
   * The run's one cancellation: the caller aborts it to cancel (reason CANCELLED)
   * or on the run's time limit (RUN_TIMEOUT); the scheduler aborts it when the
   * run ends early, which stops whatever is still running.
   */
  cancellation: RunCancellation;
  concurrency: number;
  defaultTimeoutMs: number;
  retry: RetryPolicy;
  emit: (event: RunEvent) => void;
  /** A run from a node: the nodes that settle as an earlier run left them instead of running. */
  reuse?: ReusePlan;
  /** A run to a node: the only nodes that run (planRunTo); the others are skipped. */
  upTo?: ReadonlySet<number>;
  /** A run a person started: a pinned node settles with its pinned output (FlowNode.pin). */
  usePins?: boolean;
  /** The secrets the flow reads, by name (`{{secrets.name}}`), read before the run started. */
  secrets?: ReadonlyMap<string, string>;
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
 * node ends the run and aborts whatever is still running. In a flow with an
 * input node, nodes the input does not lead to are skipped.
 *
 * A loop edge taken starts a new pass of its body (the nodes from its target
 * to its source): their counts start over and each run of a node in it is
 * recorded as its next iteration. Edges leaving the body wait until the loop
 * is done, so what follows a loop runs once, on the last pass's outputs.
 */
export function schedule(input: ScheduleInput): Promise<ScheduleResult> {
  return new Promise((resolve) => new RunScheduler(input, planFlow(input.flow, input.registry), resolve).begin());
}

/** One run's state. A class, not closures: a one-node flow run thousands of times a second pays per allocation. */
class RunScheduler implements RenderScope {
  readonly inputs: Record<string, unknown>;
  private readonly remaining: Int32Array;
  private readonly liveInputs: Int32Array;
  /** The ports each node took when it last settled (undefined: none); loops read them again. */
  private readonly taken: (readonly string[] | undefined)[];
  /** Each node's current iteration: 1, plus one per new pass of a loop around it. */
  private readonly iteration: Int32Array;
  /** 1 once a node started, settled or was skipped: a run that ends early records the rest as skipped. */
  private readonly reached: Uint8Array;
  /** Each loop's current pass. */
  private readonly loopPass: Int32Array;
  /** A handled failure that still fails the run once the rest has run (`onError: fail`). */
  private failure: ScheduleResult | undefined;
  private readonly results = new Map<string, { output?: unknown; error?: StepError }>();
  private readonly queue: number[] = [];
  private head = 0;
  private running = 0;
  private hasEnded = false;
  private hasProgress = false;
  private ending: ScheduleResult | undefined;
  private output: RunOutput | undefined;
  private readonly onAbort = () => this.abortedFromOutside();
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly input: ScheduleInput,
    private readonly plan: FlowPlan,
    private readonly resolve: (result: ScheduleResult) => void,
  ) {
    this.inputs = input.inputs;
    this.remaining = plan.indegree.slice();
    this.liveInputs = new Int32Array(plan.nodes.length);
    this.taken = new Array<readonly string[] | undefined>(plan.nodes.length);
    this.iteration = new Int32Array(plan.nodes.length).fill(1);
    this.loopPass = new Int32Array(plan.loops.length).fill(1);
    this.reached = new Uint8Array(plan.nodes.length);
  }

  /** RenderScope: what an upstream node left. */
  node(id: string): { output?: unknown; error?: StepError } | undefined {
    return this.results.get(id);
  }

  /** RenderScope: a secret the flow reads. */
  secret(name: string): string | undefined {
    return this.input.secrets?.get(name);
  }

  begin(): void {
    this.stopListening = this.input.cancellation.listen(this.onAbort);
    const { nodes, hasEntry } = this.plan;
    for (const index of this.plan.roots) {
      if (hasEntry && !(nodes[index] as PlannedNode).definition.isEntry) this.skip(index);
      else this.queue.push(index);
    }
    this.pump();
  }

  private pump(): void {
    while (!this.hasEnded && this.running < this.input.concurrency && this.head < this.queue.length) {
      this.start(this.queue[this.head++] as number);
    }
    if (this.running > 0 || (!this.hasEnded && this.head < this.queue.length)) return;
    this.stopListening();
    if (this.ending) this.recordUnreached();
    const outcome = this.ending ?? this.failure ?? { status: 'succeeded' };
    this.resolve(this.output && !this.ending ? { ...outcome, output: this.output } : outcome);
  }

  private start(index: number): void {
    this.reached[index] = 1;
    const planned = this.plan.nodes[index] as PlannedNode;
    const { input } = this;
    const reused = input.reuse?.settled.get(index);
    if (reused) return this.settleReused(planned, reused, input.reuse?.runId as string);
    if (input.upTo && !input.upTo.has(index)) return this.skip(index);
    if (planned.passesOn) return this.passOn(planned, planned.passesOn);
    if (input.usePins && planned.node.pin) return this.settlePinned(planned, planned.node.pin.output);
    this.running++;
    void runNode({
      runId: input.runId,
      node: planned.node,
      definition: planned.definition,
      scope: this,
      ports: input.ports,
      cancellation: input.cancellation,
      timeoutMs: planned.node.timeoutMs ?? planned.definition.defaultTimeoutMs ?? input.defaultTimeoutMs,
      retry: input.retry,
      isHandled: planned.isHandled,
      iteration: this.iteration[index] as number,
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
      emit({ type: 'node.cancelled', runId, nodeId: node.id, at: Date.now(), ...this.passOf(planned.index) });
      return;
    }
    if (result.status === 'failed') {
      const error = { code: result.error.code, message: result.error.message };
      this.results.set(node.id, { error });
      return this.fail(planned, error);
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

  /** A failure: the error edge (or nothing) when the node's failure is handled, the end of the run otherwise. */
  private fail(planned: PlannedNode, error: StepError): void {
    const nodeId = planned.node.id;
    if (!planned.isHandled) return this.failRun(nodeId, error);
    this.failLater(planned, error);
    this.settle(planned, ERROR_PORT);
  }

  /** `onError: fail`: the run goes on along the error edge, and ends failed with the first such error. */
  private failLater(planned: PlannedNode, error: StepError): void {
    if (planned.failsRunAfter) this.failure ??= { status: 'failed', error: { ...error, nodeId: planned.node.id } };
  }

  private failRun(nodeId: string, error: StepError): void {
    this.end(
      { status: this.hasProgress ? 'partial' : 'failed', error: { ...error, nodeId } },
      new FlowbenchError('CANCELLED', `the run failed at node "${nodeId}"`),
    );
  }

  /** The `iteration` field of a node's events: absent on the first pass, as most runs have no loop. */
  private passOf(index: number): { iteration?: number } {
    const iteration = this.iteration[index] as number;
    return iteration > 1 ? { iteration } : {};
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

  /**
   * A deactivated node: instead of running, it hands on what came into it (its
   * first live input's output, as n8n's deactivated node passes its input
   * through) from its first port (a condition: its `true` branch).
   */
  private passOn(planned: PlannedNode, incoming: readonly { source: number; sourcePort: string }[]): void {
    const live = incoming.find((edge) => this.taken[edge.source]?.includes(edge.sourcePort));
    const from = live && this.results.get((this.plan.nodes[live.source] as PlannedNode).node.id);
    const output = from && 'output' in from ? from.output : null;
    const { runId, emit } = this.input;
    const nodeId = planned.node.id;
    emit({
      type: 'node.finished',
      runId,
      nodeId,
      at: Date.now(),
      durationMs: 0,
      attempts: 0,
      input: output,
      output,
      passedOver: true,
      ...this.passOf(planned.index),
    });
    const first = planned.definition.outputs.find((port) => port.kind !== 'error');
    this.succeed(planned, output, first ? [first.id] : []);
  }

  /** A pinned node in a run a person started: its pinned output, the ports it says (a condition's), without running. */
  private settlePinned(planned: PlannedNode, output: unknown): void {
    const { runId, emit } = this.input;
    const nodeId = planned.node.id;
    const at = Date.now();
    const pass = this.passOf(planned.index);
    emit({ type: 'node.finished', runId, nodeId, at, durationMs: 0, attempts: 0, output, pinned: true, ...pass });
    this.succeed(planned, output, planned.definition.portsFor?.(output) ?? planned.dataPorts);
  }

  /** Counts the node as settled for everything downstream; `livePorts` are the ports it took. */
  private settle(planned: PlannedNode, livePorts: readonly string[] | undefined): void {
    this.taken[planned.index] = livePorts;
    for (const edge of planned.outgoing) {
      if (edge.heldBy === undefined) this.arrive(edge.target, livePorts?.includes(edge.sourcePort) === true);
    }
    if (planned.loop !== undefined) this.loopBack(planned, planned.loop, livePorts);
  }

  /** One incoming edge of `target` settled; the last one starts or skips it. */
  private arrive(target: number, isLive: boolean): void {
    const left = --this.remaining[target]!;
    if (isLive) this.liveInputs[target]!++;
    if (left === 0) {
      if (this.liveInputs[target]! > 0) this.queue.push(target);
      else this.skip(target);
    }
  }

  /** A loop's source settled: another pass, the loop's limit as the source's error, or the loop done. */
  private loopBack(planned: PlannedNode, l: number, livePorts: readonly string[] | undefined): void {
    const loop = this.plan.loops[l] as PlannedLoop;
    if (!livePorts?.includes(loop.sourcePort)) return this.loopDone(loop);
    if (this.loopPass[l]! < loop.maxIterations) return this.nextPass(l, loop);
    const nodeId = planned.node.id;
    const targetId = (this.plan.nodes[loop.target] as PlannedNode).node.id;
    const error: StepError = {
      code: 'LOOP_LIMIT',
      message: `node "${nodeId}" went back to "${targetId}" after pass ${loop.maxIterations}, the most its loop edge "${loop.edgeId}" allows`,
    };
    this.results.set(nodeId, { ...this.results.get(nodeId), error });
    const { runId, emit } = this.input;
    emit({
      type: 'node.failed',
      runId,
      nodeId,
      at: Date.now(),
      attempt: 0,
      error,
      willRetry: false,
      isHandled: planned.hasErrorExit,
      ...this.passOf(planned.index),
    });
    // Only an error edge out of the loop takes the limit: going on as if the loop had ended well
    // (a `continue` node, or the loop edge's own error port) would hide it.
    if (!planned.hasErrorExit) return this.failRun(nodeId, error);
    this.failLater(planned, error);
    // The source's error edges leave the body: they run once the loop is done.
    this.taken[planned.index] = ERROR_PORT;
    this.loopDone(loop);
  }

  /** Starts the loop's body over: counts as before its first pass, the loop edge live into its target. */
  private nextPass(l: number, loop: PlannedLoop): void {
    this.loopPass[l]!++;
    for (const inner of loop.inner) this.loopPass[inner] = 1;
    for (const { index, innerEdges } of loop.body) {
      this.remaining[index] = innerEdges;
      this.liveInputs[index] = 0;
      this.iteration[index]!++;
    }
    for (const edge of loop.entering) {
      if (this.taken[edge.source]?.includes(edge.sourcePort)) this.liveInputs[edge.target]!++;
    }
    this.liveInputs[loop.target]!++;
    if (this.remaining[loop.target] === 0) this.queue.push(loop.target);
  }

  /** The loop is done: the edges leaving its body count now, as the last pass left their sources. */
  private loopDone(loop: PlannedLoop): void {
    for (const exit of loop.exits)
      this.arrive(exit.target, this.taken[exit.source]?.includes(exit.sourcePort) === true);
  }

  private skip(index: number): void {
    if (this.hasEnded) return;
    this.reached[index] = 1;
    const planned = this.plan.nodes[index] as PlannedNode;
    this.input.emit({
      type: 'node.skipped',
      runId: this.input.runId,
      nodeId: planned.node.id,
      at: Date.now(),
      ...this.passOf(index),
    });
    this.settle(planned, undefined);
  }

  /** A run that ended early (a failure, a stop, a cancel): the nodes it never reached are recorded as skipped. */
  private recordUnreached(): void {
    const { runId, emit } = this.input;
    const at = Date.now();
    this.plan.nodes.forEach((planned, index) => {
      if (this.reached[index] === 0) emit({ type: 'node.skipped', runId, nodeId: planned.node.id, at });
    });
  }

  private end(result: ScheduleResult, reason: FlowbenchError): void {
    if (this.hasEnded) return;
    this.hasEnded = true;
    this.ending = result;
    // Also fires onAbort; hasEnded makes that a no-op.
    this.input.cancellation.abort(reason);
  }

  private abortedFromOutside(): void {
    const reason = toFlowbenchError(this.input.cancellation.reason);
    const status: RunStatus = reason.code === 'RUN_TIMEOUT' ? 'failed' : 'cancelled';
    this.end({ status, error: { code: reason.code, message: reason.message } }, reason);
  }
}

const ERROR_PORT: readonly string[] = ['error'];
