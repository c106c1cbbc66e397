import type { FlowEdge } from './flow';
import { buildAdjacency, reachable } from './graph';

/**
 * Loops: a loop edge goes back from a node to an earlier one, and following it
 * runs the nodes between them again. Validation and the engine's plan both
 * need each loop's body, computed here once over plain ids.
 */

export interface LoopShape {
  edge: FlowEdge;
  /** The nodes of one pass: every node on a path from the edge's target to its source (both included). */
  body: Set<string>;
}

export interface LoopProblem {
  code: 'LOOP_NOT_BACK' | 'LOOP_CONFLICT';
  message: string;
  edgeId: string;
}

export const isLoopEdge = (edge: FlowEdge): boolean => edge.loop !== undefined;

/**
 * The loops of a flow and what is wrong with them. A loop edge must go back:
 * its target leads to its source along ordinary edges. One node starts at most
 * one loop edge, and two loops either nest or share no node, so each pass of
 * a loop has one meaning.
 */
export function findLoops(
  nodeIds: Iterable<string>,
  edges: readonly FlowEdge[],
): { loops: LoopShape[]; problems: LoopProblem[] } {
  const { outgoing, incoming } = buildAdjacency(
    nodeIds,
    edges.filter((e) => !isLoopEdge(e)),
  );
  const loops: LoopShape[] = [];
  const problems: LoopProblem[] = [];
  const sources = new Map<string, string>();
  for (const edge of edges) {
    if (!isLoopEdge(edge) || !outgoing.has(edge.source) || !outgoing.has(edge.target)) continue;
    const earlier = sources.get(edge.source);
    if (earlier !== undefined) {
      problems.push({
        code: 'LOOP_CONFLICT',
        edgeId: edge.id,
        message: `node "${edge.source}" starts two loop edges ("${earlier}" and "${edge.id}"); a node can go back to one place only`,
      });
      continue;
    }
    sources.set(edge.source, edge.id);
    const after = reachable([edge.target], (id) => outgoing.get(id));
    if (!after.has(edge.source)) {
      problems.push({
        code: 'LOOP_NOT_BACK',
        edgeId: edge.id,
        message: `loop edge "${edge.id}" goes from "${edge.source}" to "${edge.target}", which does not lead back to "${edge.source}"; a loop edge goes back to an earlier node`,
      });
      continue;
    }
    const before = reachable([edge.source], (id) => incoming.get(id));
    loops.push({ edge, body: new Set([...after].filter((id) => before.has(id))) });
  }
  for (let i = 0; i < loops.length; i++) {
    for (let j = i + 1; j < loops.length; j++) {
      const a = loops[i] as LoopShape;
      const b = loops[j] as LoopShape;
      const shared = [...a.body].filter((id) => b.body.has(id)).length;
      if (shared === 0 || shared === a.body.size || shared === b.body.size) continue;
      problems.push({
        code: 'LOOP_CONFLICT',
        edgeId: b.edge.id,
        message: `the loops of edges "${a.edge.id}" and "${b.edge.id}" share some nodes but neither contains the other; loops must nest or stay apart`,
      });
    }
  }
  return { loops, problems };
}

/**
 * Why a run cannot start from `nodeId` ("run from here"), or undefined: it
 * sits inside a loop whose first nodes it does not lead to. Such a run would
 * reuse the loop's first nodes while running its last ones, and the next
 * pass would reuse them again instead of running them. From the loop's first
 * node (its edge's target) the whole loop runs again, and from a node before
 * or after a loop, the loop runs whole or is reused whole (its last pass).
 */
export function runFromLoopProblem(
  nodeIds: Iterable<string>,
  edges: readonly FlowEdge[],
  nodeId: string,
): string | undefined {
  const ids = [...nodeIds];
  const { outgoing } = buildAdjacency(
    ids,
    edges.filter((e) => !isLoopEdge(e)),
  );
  const runs = reachable([nodeId], (id) => outgoing.get(id));
  for (const { edge, body } of findLoops(ids, edges).loops) {
    const running = [...body].filter((id) => runs.has(id)).length;
    if (running > 0 && running < body.size) {
      return `node "${nodeId}" is inside the loop back from "${edge.source}" to "${edge.target}": run from "${edge.target}", where each pass starts, to run the loop again`;
    }
  }
  return undefined;
}
