import type { FlowEdge } from '../model/flow';
import { findLoops } from '../model/loops';
import type { ImportProblem } from './shared';

/**
 * How many passes a loop made of an n8n connection takes at most. n8n follows
 * a connection back as often as it comes (a job polled until it is done, a
 * retry); a Flowbench loop needs a limit, and the run fails with LOOP_LIMIT
 * past it. 100 passes of a poll every few seconds are some minutes.
 */
export const IMPORTED_LOOP_PASSES = 100;

type Edge = Record<string, unknown>;

/**
 * The connections that go back to an earlier node, as loop edges. n8n runs a
 * cycle of connections; a Flowbench flow repeats only along a loop edge, and
 * a cycle of plain edges is refused (17 of 348 public n8n AI templates were,
 * whole). The edge that closes each cycle, found depth first from the nodes
 * nothing leads to in the file's order, becomes a loop of at most
 * IMPORTED_LOOP_PASSES passes, said. One that Flowbench's loops cannot hold
 * (a node going back to two places, loops that overlap) is left out, an
 * error saying so.
 */
export function withLoops(
  nodes: readonly Record<string, unknown>[],
  edges: readonly Edge[],
  problems: ImportProblem[],
): Edge[] {
  const ids = nodes.map((node) => String(node.id));
  const backs = backEdges(ids, edges);
  if (backs.size === 0) return [...edges];
  const labels = new Map(nodes.map((node) => [String(node.id), String(node.label ?? node.id)]));
  const named = (id: unknown) => JSON.stringify(labels.get(String(id)) ?? id);
  const at = (id: unknown) => `connections[${JSON.stringify(labels.get(String(id)) ?? id)}]`;
  let result = edges.map((edge) =>
    backs.has(edge) ? { ...edge, loop: { maxIterations: IMPORTED_LOOP_PASSES } } : edge,
  );
  // Leaving one loop out can settle another's conflict: one at a time, until none is left.
  for (;;) {
    const { problems: conflicts } = findLoops(ids, result as unknown as FlowEdge[]);
    const [conflict] = conflicts;
    if (!conflict) break;
    const edge = result.find((e) => e.id === conflict.edgeId) as Edge & { source: string };
    result = result.filter((e) => e !== edge);
    problems.push({
      code: 'IMPORT_PROBLEM',
      nodeId: edge.source,
      source: at(edge.source),
      message: `n8n node ${named(edge.source)} goes back to ${named(edge.target)}, a loop a Flowbench flow cannot hold (${conflict.message}); that connection is left out: rebuild the loop`,
    });
  }
  for (const edge of result.filter((e) => e.loop !== undefined)) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      nodeId: String(edge.source),
      source: at(edge.source),
      message: `n8n node ${named(edge.source)} goes back to ${named(edge.target)}, which n8n repeats with no limit; here it is a loop edge of at most ${IMPORTED_LOOP_PASSES} passes (a run needing more fails LOOP_LIMIT): set the limit on the edge`,
    });
  }
  return result;
}

/** The edges that close a cycle: to a node still being walked, depth first, roots first (in `order`). */
export function backEdges<E extends Edge>(order: readonly string[], edges: readonly E[]): Set<E> {
  const outgoing = new Map<string, E[]>(order.map((id) => [id, []]));
  const hasIncoming = new Set<string>();
  for (const edge of edges) {
    outgoing.get(String(edge.source))?.push(edge);
    hasIncoming.add(String(edge.target));
  }
  const state = new Map<string, 'walking' | 'done'>();
  const backs = new Set<E>();
  // Iterative: a workflow of thousands of nodes in a chain would overflow the stack.
  const walk = (root: string) => {
    const stack: { id: string; next: number }[] = [{ id: root, next: 0 }];
    state.set(root, 'walking');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const edge = outgoing.get(top.id)?.[top.next++];
      if (!edge) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const target = String(edge.target);
      const seen = state.get(target);
      if (seen === 'walking') backs.add(edge);
      else if (seen === undefined && outgoing.has(target)) {
        state.set(target, 'walking');
        stack.push({ id: target, next: 0 });
      }
    }
  };
  for (const id of order) if (!hasIncoming.has(id) && !state.has(id)) walk(id);
  // A cycle nothing leads into.
  for (const id of order) if (!state.has(id)) walk(id);
  return backs;
}
