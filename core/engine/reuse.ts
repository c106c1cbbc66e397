import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { RunReuse, StepError, StepStatus } from '../model/run';
import { reachable } from '../model/graph';
import type { FlowPlan } from './flow-plan';
import { neededBy } from '../model/run-to';
import { runFromLoopProblem } from '../model/loops';

/** What "run from here" starts from: a node, and the steps of the earlier run whose outputs it reuses. */
export interface ReuseSource {
  fromNodeId: string;
  runId: string;
  /** Each node's last step (a loop's last pass). */
  steps: ReadonlyMap<string, { status: StepStatus; output?: unknown; error?: StepError }>;
}

/** How a node that does not run this time settles: with its earlier output, its earlier error, or skipped. */
export type ReusedStep =
  { kind: 'output'; output: unknown } | { kind: 'error'; error: StepError } | { kind: 'skipped' };

export interface ReusePlan {
  runId: string;
  /** Nodes that do not run, each with how it settles. Nodes absent here run. */
  settled: Map<number, ReusedStep>;
  /** What the run record says (see RunReuse). */
  record: RunReuse;
}

/**
 * Plans a run from `source.fromNodeId`: that node and everything downstream
 * of it run; every other node settles as it did in the earlier run. Throws
 * NODE_NOT_FOUND, and REUSE_UNAVAILABLE when a node upstream of the start
 * has nothing usable stored (it failed unhandled, was cancelled, or did not
 * exist then): its downstream would run on a value that never was.
 */
export function planReuse(flow: Flow, plan: FlowPlan, source: ReuseSource): ReusePlan {
  const start = flow.nodes.findIndex((n) => n.id === source.fromNodeId);
  if (start < 0) {
    throw new FlowbenchError('NODE_NOT_FOUND', `flow "${flow.name}" has no node "${source.fromNodeId}"`, {
      nodeId: source.fromNodeId,
    });
  }
  // A loop runs whole (the start leads to all of it) or is reused whole, as its last pass left it.
  const inLoop =
    plan.loops.length > 0
      ? runFromLoopProblem(
          flow.nodes.map((n) => n.id),
          flow.edges,
          source.fromNodeId,
        )
      : undefined;
  if (inLoop !== undefined) throw new FlowbenchError('REUSE_UNAVAILABLE', inLoop, { nodeId: source.fromNodeId });
  const runs = reachable([start], (i) => (plan.nodes[i]?.outgoing ?? []).map((e) => e.target));
  const upstream = neededBy(flow, source.fromNodeId) ?? new Set<string>();
  const settled = new Map<number, ReusedStep>();
  const reused: string[] = [];
  plan.nodes.forEach((planned, index) => {
    if (runs.has(index)) return;
    const id = planned.node.id;
    const step = source.steps.get(id);
    if (step?.status === 'succeeded') {
      settled.set(index, { kind: 'output', output: step.output });
      reused.push(id);
    } else if (step?.status === 'failed' && step.error && planned.isHandled) {
      settled.set(index, { kind: 'error', error: step.error });
      reused.push(id);
    } else if (step?.status === 'skipped' || !upstream.has(id)) {
      // Off the start's path, a node the earlier run never finished just stays out of this one.
      settled.set(index, { kind: 'skipped' });
    } else {
      const what = step ? `ended ${step.status}` : 'has no step';
      throw new FlowbenchError(
        'REUSE_UNAVAILABLE',
        `node "${id}" (upstream of "${source.fromNodeId}") ${what} in run ${source.runId}: run the whole flow, or pick a run where it succeeded`,
        { nodeId: id, runId: source.runId },
      );
    }
  });
  return {
    runId: source.runId,
    settled,
    record: { fromNodeId: source.fromNodeId, runId: source.runId, nodeIds: reused },
  };
}
