import { FlowbenchError } from '../model/errors';
import type { Flow, FlowNode } from '../model/flow';
import type { NodeDefinition } from '../nodes/define-node';
import type { NodeRegistry } from '../nodes/registry';

export interface PlannedNode {
  node: FlowNode;
  definition: NodeDefinition<Record<string, unknown>>;
  /** Edges leaving the node, with their targets as indexes into `FlowPlan.nodes`. */
  outgoing: { target: number; sourcePort: string }[];
  /** The node's error port is connected, so its failure continues the run. */
  isHandled: boolean;
  /** The ports a success takes when the node names none. */
  dataPorts: readonly string[];
}

/** What the scheduler needs of a flow's shape, computed once per flow, not once per run. */
export interface FlowPlan {
  nodes: PlannedNode[];
  /** Incoming edges per node; a run counts them down as its sources settle. */
  indegree: Int32Array;
  /** Nodes without incoming edges, in the flow's order: they start first. */
  roots: number[];
}

// Flows handed to the engine are not mutated (see validateOnce in run-flow.ts).
const plans = new WeakMap<Flow, { registry: NodeRegistry; plan: FlowPlan }>();

export function planFlow(flow: Flow, registry: NodeRegistry): FlowPlan {
  const cached = plans.get(flow);
  if (cached?.registry === registry) return cached.plan;
  const plan = buildPlan(flow, registry);
  plans.set(flow, { registry, plan });
  return plan;
}

function buildPlan(flow: Flow, registry: NodeRegistry): FlowPlan {
  const indexOf = new Map(flow.nodes.map((node, index) => [node.id, index]));
  const nodes = flow.nodes.map((node): PlannedNode => {
    const definition = registry.get(node.type);
    if (!definition)
      throw new FlowbenchError('INTERNAL_ERROR', `node "${node.id}" has the unknown type "${node.type}"`);
    return {
      node,
      definition,
      outgoing: [],
      isHandled: false,
      dataPorts: definition.outputs.filter((p) => p.kind === 'data').map((p) => p.id),
    };
  });
  const indegree = new Int32Array(nodes.length);
  for (const edge of flow.edges) {
    const source = indexOf.get(edge.source);
    const target = indexOf.get(edge.target);
    if (source === undefined || target === undefined) continue;
    const planned = nodes[source] as PlannedNode;
    planned.outgoing.push({ target, sourcePort: edge.sourcePort });
    if (planned.definition.outputs.some((p) => p.id === edge.sourcePort && p.kind === 'error'))
      planned.isHandled = true;
    indegree[target]!++;
  }
  const roots = nodes.flatMap((_, index) => (indegree[index] === 0 ? [index] : []));
  return { nodes, indegree, roots };
}
