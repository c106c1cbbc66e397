import { FlowbenchError } from '../model/errors';
import type { Flow, FlowNode } from '../model/flow';
import { findLoops, isLoopEdge } from '../model/loops';
import type { NodeDefinition } from '../nodes/define-node';
import type { NodeRegistry } from '../nodes/registry';

export interface PlannedNode {
  /** Where the node is in `FlowPlan.nodes` (and the flow's node list). */
  index: number;
  node: FlowNode;
  definition: NodeDefinition<Record<string, unknown>>;
  /** Edges leaving the node (loop edges aside), with their targets as indexes into `FlowPlan.nodes`. */
  outgoing: PlannedEdge[];
  /** The node's failure continues the run: its error port is connected, or it says `continue`. */
  isHandled: boolean;
  /** Its failure fails the run once the error edge's steps have run (`onError: fail` with an error edge). */
  failsRunAfter: boolean;
  /** An error edge that is no loop edge leaves the node: where a LOOP_LIMIT goes. */
  hasErrorExit: boolean;
  /** The loop whose edge leaves this node, as an index into `FlowPlan.loops`. */
  loop?: number;
  /** The ports a success takes when the node names none. */
  dataPorts: readonly string[];
  /** A deactivated node's incoming edges, in the flow's order: it hands on the first live one's output. */
  passesOn?: { source: number; sourcePort: string }[];
}

export interface PlannedEdge {
  target: number;
  sourcePort: string;
  /**
   * The loop that settles this edge: set on an edge leaving a loop's body, which
   * counts once, when the loop is done, not once per pass. With nested loops it
   * is the outermost loop the edge leaves.
   */
  heldBy?: number;
}

export interface PlannedLoop {
  edgeId: string;
  target: number;
  sourcePort: string;
  maxIterations: number;
  /** The nodes of one pass, with the edges among them each has (its `remaining` at a new pass). */
  body: { index: number; innerEdges: number }[];
  /** Edges from outside the body into it: settled once, before the first pass. */
  entering: { source: number; sourcePort: string; target: number }[];
  /** Edges held until the loop is done (see PlannedEdge.heldBy). */
  exits: { source: number; sourcePort: string; target: number }[];
  /** Loops nested inside this one: a new pass starts them over. */
  inner: number[];
}

/** What the scheduler needs of a flow's shape, computed once per flow, not once per run. */
export interface FlowPlan {
  nodes: PlannedNode[];
  loops: PlannedLoop[];
  /** The flow has an input node: nodes it does not lead to never run. */
  hasEntry: boolean;
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
  const nodes = flow.nodes.map((node, index): PlannedNode => {
    const definition = registry.get(node.type);
    if (!definition)
      throw new FlowbenchError('INTERNAL_ERROR', `node "${node.id}" has the unknown type "${node.type}"`);
    return {
      index,
      node,
      definition,
      outgoing: [],
      isHandled: node.onError === 'continue',
      failsRunAfter: false,
      hasErrorExit: false,
      dataPorts: definition.outputs.filter((p) => p.kind === 'data').map((p) => p.id),
      ...(node.disabled ? { passesOn: [] } : {}),
    };
  });
  const indegree = new Int32Array(nodes.length);
  for (const edge of flow.edges) {
    const source = indexOf.get(edge.source);
    const target = indexOf.get(edge.target);
    if (source === undefined || target === undefined) continue;
    const planned = nodes[source] as PlannedNode;
    const isError = planned.definition.outputs.some((p) => p.id === edge.sourcePort && p.kind === 'error');
    if (isError) {
      planned.isHandled = true;
      planned.failsRunAfter = planned.node.onError === 'fail';
    }
    const into = nodes[target] as PlannedNode;
    if (into.node.disabled) (into.passesOn ??= []).push({ source, sourcePort: edge.sourcePort });
    if (isLoopEdge(edge)) continue;
    if (isError) planned.hasErrorExit = true;
    planned.outgoing.push({ target, sourcePort: edge.sourcePort });
    indegree[target]!++;
  }
  const roots = nodes.flatMap((_, index) => (indegree[index] === 0 ? [index] : []));
  const loops = planLoops(flow, nodes, indexOf);
  return { nodes, loops, hasEntry: nodes.some((n) => n.definition.isEntry), indegree, roots };
}

/** Loop bodies by index, and which edges each loop holds until it is done. Validation has refused bad loops. */
function planLoops(flow: Flow, nodes: PlannedNode[], indexOf: ReadonlyMap<string, number>): PlannedLoop[] {
  const shapes = findLoops(indexOf.keys(), flow.edges).loops;
  if (shapes.length === 0) return [];
  const bodies = shapes.map((shape) => new Set([...shape.body].map((id) => indexOf.get(id) as number)));
  const loops = shapes.map((shape, l): PlannedLoop => {
    const source = indexOf.get(shape.edge.source) as number;
    (nodes[source] as PlannedNode).loop = l;
    const body = bodies[l] as Set<number>;
    const innerEdges = new Map([...body].map((index) => [index, 0]));
    const entering: PlannedLoop['entering'] = [];
    nodes.forEach((planned, from) => {
      for (const edge of planned.outgoing) {
        if (!body.has(edge.target)) continue;
        if (body.has(from)) innerEdges.set(edge.target, (innerEdges.get(edge.target) ?? 0) + 1);
        else entering.push({ source: from, sourcePort: edge.sourcePort, target: edge.target });
      }
    });
    return {
      edgeId: shape.edge.id,
      target: indexOf.get(shape.edge.target) as number,
      sourcePort: shape.edge.sourcePort,
      maxIterations: shape.edge.loop?.maxIterations ?? 2,
      body: [...innerEdges].map(([index, count]) => ({ index, innerEdges: count })),
      entering,
      exits: [],
      inner: bodies.flatMap((other, o) =>
        o !== l && other.size < body.size && [...other].every((i) => body.has(i)) ? [o] : [],
      ),
    };
  });
  nodes.forEach((planned, from) => {
    for (const edge of planned.outgoing) {
      // The outermost loop the edge leaves: its largest body holding the source and not the target.
      let held: number | undefined;
      bodies.forEach((body, l) => {
        if (
          body.has(from) &&
          !body.has(edge.target) &&
          (held === undefined || body.size > (bodies[held] as Set<number>).size)
        )
          held = l;
      });
      if (held === undefined) continue;
      edge.heldBy = held;
      (loops[held] as PlannedLoop).exits.push({ source: from, sourcePort: edge.sourcePort, target: edge.target });
    }
  });
  return loops;
}
