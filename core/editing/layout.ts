import type { Position } from '../model/flow';

/**
 * Every node card is this wide and about this tall. The renderer's stylesheet
 * draws the card from these (see renderer/src/editor/card-size.ts).
 */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 90;
/** The least a card is tall, in every view, so zooming never moves an edge. */
export const NODE_MIN_HEIGHT = 80;
/** The card's border; its ports are placed inside it (on the padding box's edges). */
export const NODE_BORDER = 1;
/** A port's handle, centred on the card's edge. */
export const PORT_SIZE = 10;
/**
 * Cards closer than this share of a card (in both directions) cover each
 * other. Closer spacing from a tool with smaller cards (FlowyPrompt's 200 px)
 * overlaps a little here but stays as its author placed it, and exports back
 * unchanged.
 */
const OVERLAP = 0.75;
/** Past this many nodes a layered layout takes seconds; such flows keep the positions they came with. */
export const MAX_LAYOUT_NODES = 1_000;

interface Placed {
  id: string;
  position?: Partial<Position> | undefined;
}
interface Joined {
  source: string;
  target: string;
}

/**
 * Left-to-right layered layout (ELK), the one the editor's Layout button
 * applies: each node after the nodes it reads from, branches side by side.
 */
export async function layoutPositions(
  nodes: readonly Placed[],
  edges: readonly Joined[],
): Promise<{ id: string; position: Position }[]> {
  // ELK is large; it loads the first time a layout is asked for.
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const ids = new Set(nodes.map((n) => n.id));
  const graph = await new ELK().layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
    },
    children: nodes.map((n) => ({ id: n.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    // An edge to a node that does not exist is the validator's to report; ELK would throw on it.
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e, i) => ({ id: `e${i}`, sources: [e.source], targets: [e.target] })),
  });
  return (graph.children ?? []).map((c) => ({
    id: c.id,
    position: { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) },
  }));
}

/**
 * Lays out only the nodes `ids` names, as n8n's tidy-up of a selection: the
 * same layered layout over them and the edges between them, put where they
 * were (the top-left corner of their bounds stays), every other node left
 * where it is. Nothing for fewer than two.
 */
export async function layoutSelected(
  nodes: readonly { id: string; position: Position }[],
  edges: readonly Joined[],
  ids: ReadonlySet<string>,
): Promise<{ id: string; position: Position }[]> {
  const chosen = nodes.filter((n) => ids.has(n.id));
  if (chosen.length < 2) return [];
  const laid = await layoutPositions(
    chosen,
    edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  );
  const corner = (positions: readonly Position[]) => ({
    x: Math.min(...positions.map((p) => p.x)),
    y: Math.min(...positions.map((p) => p.y)),
  });
  const was = corner(chosen.map((n) => n.position));
  const now = corner(laid.map((l) => l.position));
  return laid.map(({ id, position }) => ({
    id,
    position: { x: position.x - now.x + was.x, y: position.y - now.y + was.y },
  }));
}

/**
 * Why a flow's positions do not show its shape, or undefined when they do:
 * positions missing, two cards on top of each other, or every node in one
 * row while the flow branches (what importers without positions produce).
 */
export function layoutReason(nodes: readonly Placed[], edges: readonly Joined[]): string | undefined {
  if (nodes.length < 2) return undefined;
  if (nodes.some((n) => typeof n.position?.x !== 'number' || typeof n.position.y !== 'number')) {
    return 'positions were missing';
  }
  const boxes = nodes.map((n) => n.position as Position);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i] as Position;
      const b = boxes[j] as Position;
      if (Math.abs(a.x - b.x) < OVERLAP * NODE_WIDTH && Math.abs(a.y - b.y) < OVERLAP * NODE_HEIGHT) {
        return 'nodes overlapped';
      }
    }
  }
  const branches = (key: 'source' | 'target') => {
    const seen = new Set<string>();
    return edges.some((e) => seen.size === seen.add(e[key]).size);
  };
  if (new Set(boxes.map((p) => p.y)).size === 1 && (branches('source') || branches('target'))) {
    return 'a branching flow was all in one row';
  }
  return undefined;
}

/** Nodes and edges with the fields a layout reads; a flow, or an imported file's flow before validation. */
export interface Layoutable {
  nodes: readonly Placed[];
  edges: readonly Joined[];
}

/** True when a value (an imported flow not validated yet) has nodes with ids and edges with ends to lay out. */
export function isLayoutable(value: unknown): value is Layoutable {
  const flow = value as { nodes?: unknown; edges?: unknown } | null;
  return (
    Array.isArray(flow?.nodes) &&
    Array.isArray(flow.edges) &&
    flow.nodes.every((n) => typeof (n as Placed | null)?.id === 'string') &&
    flow.edges.every(
      (e) => typeof (e as Joined | null)?.source === 'string' && typeof (e as Joined).target === 'string',
    )
  );
}

/**
 * The flow with ELK positions when its own do not show its shape (see
 * layoutReason), and why; as it was when they do, or when it is too big to
 * lay out here (then `reason` says so).
 */
export async function layOutIfNeeded<F extends Layoutable>(flow: F): Promise<{ flow: F; reason?: string }> {
  if (flow.nodes.length > MAX_LAYOUT_NODES) return { flow };
  const reason = layoutReason(flow.nodes, flow.edges);
  if (!reason) return { flow };
  const positions = new Map((await layoutPositions(flow.nodes, flow.edges)).map((p) => [p.id, p.position]));
  const nodes = flow.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position }));
  return { flow: { ...flow, nodes }, reason };
}
