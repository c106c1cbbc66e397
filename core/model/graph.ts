/**
 * Graph helpers over node ids and edges. Pure and allocation-light: they run
 * on every validation, including 5,000-node flows.
 */

export interface GraphEdge {
  source: string;
  target: string;
}

export interface Adjacency {
  outgoing: Map<string, string[]>;
  incoming: Map<string, string[]>;
}

export function buildAdjacency(nodeIds: Iterable<string>, edges: readonly GraphEdge[]): Adjacency {
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, string[]>();
  for (const id of nodeIds) {
    outgoing.set(id, []);
    incoming.set(id, []);
  }
  for (const edge of edges) {
    outgoing.get(edge.source)?.push(edge.target);
    incoming.get(edge.target)?.push(edge.source);
  }
  return { outgoing, incoming };
}

/**
 * Kahn's algorithm. Returns the nodes in dependency order, and the nodes that
 * could not be ordered because they sit on or behind a cycle.
 */
export function topologicalOrder(adjacency: Adjacency): { order: string[]; blocked: string[] } {
  const remaining = new Map<string, number>();
  const queue: string[] = [];
  for (const [id, sources] of adjacency.incoming) {
    remaining.set(id, sources.length);
    if (sources.length === 0) queue.push(id);
  }
  const order: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    order.push(id);
    for (const target of adjacency.outgoing.get(id) ?? []) {
      const left = (remaining.get(target) ?? 0) - 1;
      remaining.set(target, left);
      if (left === 0) queue.push(target);
    }
  }
  const blocked = [...remaining].filter(([, left]) => left > 0).map(([id]) => id);
  return { order, blocked };
}

/** Finds the distinct cycles among blocked nodes, each as a closed path `[a, b, a]`. */
export function findCycles(adjacency: Adjacency, blocked: readonly string[]): string[][] {
  const inBlocked = new Set(blocked);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const stack: string[] = [];

  // Iterative DFS so a 5,000-node cycle does not overflow the call stack.
  for (const start of blocked) {
    if (state.has(start)) continue;
    const frames: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'open');
    stack.push(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { id: string; next: number };
      const targets = (adjacency.outgoing.get(frame.id) ?? []).filter((t) => inBlocked.has(t));
      if (frame.next < targets.length) {
        const target = targets[frame.next++] as string;
        const seen = state.get(target);
        if (seen === 'open') {
          cycles.push([...stack.slice(stack.indexOf(target)), target]);
        } else if (seen === undefined) {
          state.set(target, 'open');
          stack.push(target);
          frames.push({ id: target, next: 0 });
        }
      } else {
        state.set(frame.id, 'done');
        stack.pop();
        frames.pop();
      }
    }
  }
  return cycles;
}

/** How many nodes a walk back from a node may visit before the ancestor's whole reach is computed instead. */
const NEAR_WALK = 64;

/**
 * Answers "can `ancestor` reach `node` by following edges forward?" for many
 * pairs over one graph. A reference mostly points a few nodes back, which a
 * short walk back from the node finds. For an ancestor further back (many
 * nodes quoting the flow's first answer) its whole reach is computed once and
 * kept: a full walk per question was quadratic, 6.6 s to check a
 * 10,000-node flow whose every node quotes the first.
 */
export function upstreamTest(adjacency: Adjacency): (ancestor: string, node: string) => boolean {
  const reaches = new Map<string, Set<string>>();
  return (ancestor, node) => {
    const known = reaches.get(ancestor);
    if (known) return known.has(node);
    const near = walkBack(adjacency, ancestor, node, NEAR_WALK);
    if (near !== undefined) return near;
    const reach = reachable(adjacency.outgoing.get(ancestor) ?? [], (id) => adjacency.outgoing.get(id));
    reaches.set(ancestor, reach);
    return reach.has(node);
  };
}

/** Looks for `ancestor` walking back from `node`; undefined once `limit` nodes were visited without an answer. */
function walkBack(adjacency: Adjacency, ancestor: string, node: string, limit: number): boolean | undefined {
  const seen = new Set<string>([node]);
  const queue = [node];
  for (let i = 0; i < queue.length; i++) {
    for (const source of adjacency.incoming.get(queue[i] as string) ?? []) {
      if (source === ancestor) return true;
      if (seen.has(source)) continue;
      if (seen.size >= limit) return undefined;
      seen.add(source);
      queue.push(source);
    }
  }
  return false;
}

/** Every node reachable from `starts` along `next`, the starts included (iterative: deep chains do not overflow the stack). */
export function reachable<T>(starts: Iterable<T>, next: (node: T) => Iterable<T> | undefined): Set<T> {
  const seen = new Set(starts);
  const stack = [...seen];
  while (stack.length > 0) {
    for (const n of next(stack.pop() as T) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

/** True when adding an edge source → target would close a cycle. */
export function wouldCreateCycle(adjacency: Adjacency, source: string, target: string): boolean {
  return source === target || walkBack(adjacency, target, source, Infinity) === true;
}

/** The shortest chain of edges from one node to another (breadth first), or undefined. */
export function shortestPath(adjacency: Adjacency, from: string, to: string): string[] | undefined {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    if (at === to) {
      const path = [to];
      while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
      return path;
    }
    for (const next of adjacency.outgoing.get(at) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, at);
      queue.push(next);
    }
  }
  return undefined;
}
