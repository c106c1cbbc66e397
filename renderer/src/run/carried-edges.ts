import type { Flow } from '../../../core/model/flow';
import type { RunRecord, StepRecord } from '../../../core/model/run';
import { nodeRegistry } from '../../../core/nodes/registry';

const DOWNSTREAM_RAN = new Set(['running', 'succeeded', 'failed', 'cancelled']);

// Node types by id, per flow: asked for every edge on every run event.
const typesOf = new WeakMap<Flow, Map<string, string>>();
function typeOf(flow: Flow, nodeId: string): string | undefined {
  let types = typesOf.get(flow);
  if (!types) {
    types = new Map(flow.nodes.map((n) => [n.id, n.type]));
    typesOf.set(flow, types);
  }
  return types.get(nodeId);
}

/** Did this step leave the node on `port`? A success on the ports its output took, a handled failure on `error`. */
function tookPort(flow: Flow, step: StepRecord, port: string): boolean {
  const type = typeOf(flow, step.nodeId);
  const definition = type ? nodeRegistry.get(type) : undefined;
  if (!definition) return false;
  if (step.status === 'failed') return definition.outputs.some((p) => p.id === port && p.kind === 'error');
  if (step.status !== 'succeeded') return false;
  const ports =
    definition.portsFor?.(step.output) ?? definition.outputs.filter((p) => p.kind === 'data').map((p) => p.id);
  return ports.includes(port);
}

/** The edges along which the run carried data: their source left on that port, and their target ran. */
export function carriedEdges(flow: Flow, run: RunRecord | undefined): ReadonlySet<string> {
  const carried = new Set<string>();
  if (!run) return carried;
  const steps = new Map(run.steps.map((s) => [s.nodeId, s]));
  for (const edge of flow.edges) {
    const source = steps.get(edge.source);
    const target = steps.get(edge.target);
    if (source && target && DOWNSTREAM_RAN.has(target.status) && tookPort(flow, source, edge.sourcePort)) {
      carried.add(edge.id);
    }
  }
  return carried;
}
