import type { Flow } from './flow';
import { buildAdjacency, reachable } from './graph';
import { isLoopEdge } from './loops';
import type { Problem, ProblemCode } from './problems';

// What no part of the flow can run with: a cycle, a node type the engine does not know.
const ANYWHERE: ReadonlySet<ProblemCode> = new Set(['CIRCULAR_DEPENDENCY', 'UNKNOWN_NODE_TYPE', 'DUPLICATE_NODE_ID']);

/**
 * The nodes a run to `nodeId` runs (n8n's Execute step): it and every node it
 * needs, following edges back (loop edges aside). Undefined when the flow has
 * no such node.
 */
export function neededBy(flow: Pick<Flow, 'nodes' | 'edges'>, nodeId: string): Set<string> | undefined {
  if (!flow.nodes.some((n) => n.id === nodeId)) return undefined;
  const forward = flow.edges.filter((e) => !isLoopEdge(e));
  const { incoming } = buildAdjacency(
    flow.nodes.map((n) => n.id),
    forward,
  );
  return reachable([nodeId], (id) => incoming.get(id));
}

/**
 * The errors that keep a run to a node from starting: the flow's own, and
 * those of the nodes it runs. A node after it, or beside it, still being set
 * up (no tool chosen yet) does not: trying the part already built is what a
 * run to a node is for. A cycle or an unknown node type stays an error wherever it is.
 */
export function runToBlockers<P extends Problem>(errors: readonly P[], needed: ReadonlySet<string>): P[] {
  return errors.filter((p) => p.nodeId === undefined || needed.has(p.nodeId) || ANYWHERE.has(p.code));
}
