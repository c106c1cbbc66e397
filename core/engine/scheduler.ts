import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow, FlowEdge, FlowNode } from '../model/flow';
import type { LlmPort } from '../model/llm';
import type { RenderScope } from '../model/render';
import type { RunEvent, RunOutput, RunStatus, StepError } from '../model/run';
import type { NodeRegistry } from '../nodes/registry';
import { runNode, type NodeResult } from './node-runner';
import type { RetryPolicy } from './retry';

export interface ScheduleInput {
  runId: string;
  /** A validated flow: every node type is known and every config parsed. */
  flow: Flow;
  inputs: Record<string, unknown>;
  llm: LlmPort;
  registry: NodeRegistry;
  /** Aborted by the caller to cancel (reason CANCELLED) or on the run's time limit (RUN_TIMEOUT). */
  signal: AbortSignal;
  concurrency: number;
  defaultTimeoutMs: number;
  retry: RetryPolicy;
  emit: (event: RunEvent) => void;
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
  const { flow, registry, emit, runId } = input;
  const nodesById = new Map<string, FlowNode>(flow.nodes.map((n) => [n.id, n]));
  const outgoing = new Map<string, FlowEdge[]>(flow.nodes.map((n) => [n.id, []]));
  const remaining = new Map<string, number>(flow.nodes.map((n) => [n.id, 0]));
  const liveInputs = new Map<string, number>(flow.nodes.map((n) => [n.id, 0]));
  for (const edge of flow.edges) {
    outgoing.get(edge.source)?.push(edge);
    remaining.set(edge.target, (remaining.get(edge.target) ?? 0) + 1);
  }

  const results = new Map<string, { output?: unknown; error?: StepError }>();
  const scope: RenderScope = { inputs: input.inputs, node: (id) => results.get(id) };
  const controller = new AbortController();
  const queue: string[] = [];
  let head = 0;
  let running = 0;
  let hasEnded = false;
  let hasProgress = false;
  let ending: ScheduleResult | undefined;
  let output: RunOutput | undefined;

  return new Promise((resolve) => {
    const end = (result: ScheduleResult, reason: FlowbenchError) => {
      if (hasEnded) return;
      hasEnded = true;
      ending = result;
      controller.abort(reason);
    };
    const onExternalAbort = () => {
      const reason = toFlowbenchError(input.signal.reason);
      const status: RunStatus = reason.code === 'RUN_TIMEOUT' ? 'failed' : 'cancelled';
      end({ status, error: { code: reason.code, message: reason.message } }, reason);
    };
    if (input.signal.aborted) onExternalAbort();
    else input.signal.addEventListener('abort', onExternalAbort, { once: true });

    const finishIfIdle = () => {
      if (running > 0 || (!hasEnded && head < queue.length)) return;
      input.signal.removeEventListener('abort', onExternalAbort);
      resolve(ending ?? { status: 'succeeded', ...(output ? { output } : {}) });
    };

    const settle = (nodeId: string, livePorts: ReadonlySet<string> | undefined) => {
      for (const edge of outgoing.get(nodeId) ?? []) {
        const left = (remaining.get(edge.target) ?? 1) - 1;
        remaining.set(edge.target, left);
        if (livePorts?.has(edge.sourcePort)) liveInputs.set(edge.target, (liveInputs.get(edge.target) ?? 0) + 1);
        if (left === 0) {
          if ((liveInputs.get(edge.target) ?? 0) > 0) queue.push(edge.target);
          else skip(edge.target);
        }
      }
    };

    const skip = (nodeId: string) => {
      if (hasEnded) return;
      emit({ type: 'node.skipped', runId, nodeId, at: Date.now() });
      settle(nodeId, undefined);
    };

    const handle = (node: FlowNode, result: NodeResult) => {
      const definition = registry.get(node.type);
      if (result.status === 'cancelled') {
        emit({ type: 'node.cancelled', runId, nodeId: node.id, at: Date.now() });
        return;
      }
      if (result.status === 'failed') {
        const error = { code: result.error.code, message: result.error.message };
        results.set(node.id, { error });
        const isHandled = (outgoing.get(node.id) ?? []).some((e) => e.sourcePort === 'error');
        if (isHandled) return settle(node.id, new Set(['error']));
        const status: RunStatus = hasProgress ? 'partial' : 'failed';
        return end(
          { status, error: { ...error, nodeId: node.id } },
          new FlowbenchError('CANCELLED', `the run failed at node "${node.id}"`),
        );
      }
      const { outcome } = result;
      if (outcome.kind === 'stop') {
        results.set(node.id, { output: { stopped: outcome.reason } });
        return end(
          { status: 'stopped', error: { code: 'STOPPED', message: outcome.reason, nodeId: node.id } },
          new FlowbenchError('CANCELLED', 'a stop node ended the run'),
        );
      }
      results.set(node.id, { output: outcome.output });
      if (node.type !== 'input') hasProgress = true;
      if (node.type === 'output') output = outcome.output as RunOutput;
      const ports = outcome.ports ?? definition?.outputs.filter((p) => p.kind === 'data').map((p) => p.id) ?? [];
      settle(node.id, new Set(ports));
    };

    const start = (nodeId: string) => {
      const node = nodesById.get(nodeId);
      const definition = node && registry.get(node.type);
      if (!node || !definition) return;
      running++;
      void runNode({
        runId,
        node,
        definition,
        scope,
        llm: input.llm,
        runSignal: controller.signal,
        timeoutMs: node.timeoutMs ?? input.defaultTimeoutMs,
        retry: input.retry,
        isHandled: (outgoing.get(node.id) ?? []).some((e) => e.sourcePort === 'error'),
        emit,
      }).then((result) => {
        running--;
        handle(node, result);
        pump();
      });
    };

    const pump = () => {
      while (!hasEnded && running < input.concurrency && head < queue.length) start(queue[head++] as string);
      finishIfIdle();
    };

    for (const node of flow.nodes) if (remaining.get(node.id) === 0) queue.push(node.id);
    pump();
  });
}
