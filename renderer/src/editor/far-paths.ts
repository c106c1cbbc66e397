import { getBezierPath, Position, type Edge, type InternalNode, type ReactFlowState } from '@xyflow/react';
import { PORT_SIZE } from '../../../core/editing/layout';
import type { FlowRfNode } from './node-view';
import { portPlaces } from './port-places';
import { loopPath } from './run-edge';

/**
 * The far-out edges' paths (far-edges.tsx): each edge's path where React Flow
 * would draw it, kept while its two nodes stand where they stood, and the
 * edges grouped into pieces drawn as a few paths each.
 */

/** How an edge is drawn, in drawing order: the selected ones on top. */
export const KINDS = ['plain', 'carried', 'selected'] as const;
type Kind = (typeof KINDS)[number];
/** The edges drawn alike: one kind, the same classes (see mapper.ts's edgeClass), as one path. */
export interface FarPath {
  kind: Kind;
  edgeClass: string;
  d: string;
}
/** What the canvas holds of each node (React Flow's store); the canvas's nodes are FlowRfNodes (canvas.tsx). */
export type NodeLookup = ReactFlowState<FlowRfNode>['nodeLookup'];
/** A node as React Flow holds it, where the far-out edges' ends are worked out from. */
export type FarNode = InternalNode<FlowRfNode>;
export const NONE_DRAGGED: ReadonlySet<string> = new Set();
export const NO_EDGES: readonly Edge[] = [];

/** Whether the edge has an end on a dragged node. */
export const touches = (edge: Edge, dragged: ReadonlySet<string>) =>
  dragged.has(edge.source) || dragged.has(edge.target);

/**
 * How many edges are drawn as one piece. The edges that stay put are drawn
 * in pieces, each its own paths, so that grabbing or letting go of a card
 * draws anew only the pieces holding its edges: drawn whole, every grab and
 * drop in a 10,000-node flow joined all the paths into one again (6 ms) and
 * had the browser read a 760 KB path anew (about 8 ms more).
 */
const PIECE_EDGES = 500;

/** The edges in runs of PIECE_EDGES, in their order. */
export function piecesOf(edges: readonly Edge[]): (readonly Edge[])[] {
  const pieces: (readonly Edge[])[] = [];
  for (let i = 0; i < edges.length; i += PIECE_EDGES) pieces.push(edges.slice(i, i + PIECE_EDGES));
  return pieces;
}

/** The path React Flow would draw for an edge between its two nodes (the same bezier or loop between the same ports); undefined until both ends are placed. */
function edgePath(edge: Edge, source: FarNode, target: FarNode): string | undefined {
  const from = portPoint(source, 'source', edge.sourceHandle);
  const to = portPoint(target, 'target', edge.targetHandle);
  if (!from || !to) return undefined;
  const ends = {
    sourceX: from.x,
    sourceY: from.y,
    sourcePosition: from.position,
    targetX: to.x,
    targetY: to.y,
    targetPosition: to.position,
  };
  return (edge.data?.isLoop ? loopPath(ends) : getBezierPath(ends))[0];
}

/** Where a node stood and its size: an edge's path depends on those (and on the node's type, which never changes). */
interface NodePlace {
  x: number;
  y: number;
  width: number | undefined;
  height: number | undefined;
}
/** An edge's path and where its two nodes stood when it was worked out. */
interface KnownPath {
  source: NodePlace;
  target: NodePlace;
  d: string;
}
/**
 * Each edge's last path, kept while the edge object lives: an edge whose two
 * nodes stand where they stood, at the same size, keeps it. Grabbing a card
 * in a 10,000-node flow worked every edge out twice (once for the selection,
 * once when the drag began), about 25 ms each here, and again at the drop.
 * Compared by place and size, not by React Flow's node objects: it makes
 * those anew on measuring a card even when nothing about it changed.
 */
const knownPaths = new WeakMap<Edge, KnownPath>();

const placeOf = (node: FarNode): NodePlace => ({
  ...node.internals.positionAbsolute,
  width: node.measured.width,
  height: node.measured.height,
});
const standsAt = (node: FarNode, place: NodePlace) =>
  node.internals.positionAbsolute.x === place.x &&
  node.internals.positionAbsolute.y === place.y &&
  node.measured.width === place.width &&
  node.measured.height === place.height;

/**
 * The edge's path (see edgePath), from knownPaths when its two nodes stand
 * where they stood: for drawing the edges and for finding the one clicked
 * (far-edges.tsx's farEdgeAt), which work out the same paths.
 */
export function pathOf(edge: Edge, getNode: (id: string) => FarNode | undefined): string | undefined {
  const source = getNode(edge.source);
  const target = getNode(edge.target);
  if (!source || !target) return undefined;
  const known = knownPaths.get(edge);
  if (known && standsAt(source, known.source) && standsAt(target, known.target)) return known.d;
  const d = edgePath(edge, source, target);
  if (d) knownPaths.set(edge, { source: placeOf(source), target: placeOf(target), d });
  return d;
}

/** Edges drawn as paths: each group's paths (one kind, one set of classes) and the paths they make. */
export interface Drawing {
  groups: Map<string, { kind: Kind; edgeClass: string; parts: string[] }>;
  paths: FarPath[];
}

/**
 * The edges as paths, one for each kind and set of classes, leaving out those
 * with an end on a dragged node and those whose ends are not placed yet.
 * `before` (the same edges' last drawing) is given back when every group has
 * the same paths as then: nothing is joined again, and nothing drawn anew.
 */
export function drawingOf(
  edges: readonly Edge[],
  lookup: NodeLookup,
  carried: ReadonlySet<string>,
  dragged: ReadonlySet<string>,
  before?: Drawing,
): Drawing {
  const groups: Drawing['groups'] = new Map();
  const getNode = (id: string) => lookup.get(id);
  for (const edge of edges) {
    if (dragged.size > 0 && touches(edge, dragged)) continue;
    const path = pathOf(edge, getNode);
    if (!path) continue;
    const kind: Kind = edge.selected ? 'selected' : carried.has(edge.id) ? 'carried' : 'plain';
    const edgeClass = edge.className ?? '';
    const key = `${kind} ${edgeClass}`;
    let group = groups.get(key);
    if (!group) {
      group = { kind, edgeClass, parts: [] };
      groups.set(key, group);
    }
    group.parts.push(path);
  }
  if (before && sameGroups(before.groups, groups)) return before;
  const paths = [...groups.values()].map(({ kind, edgeClass, parts }) => ({ kind, edgeClass, d: parts.join(' ') }));
  return { groups, paths };
}

/** Whether two drawings' groups hold the same paths, in the same order. */
function sameGroups(a: Drawing['groups'], b: Drawing['groups']): boolean {
  if (a.size !== b.size) return false;
  for (const [key, group] of b) {
    const parts = a.get(key)?.parts;
    if (!parts || parts.length !== group.parts.length) return false;
    for (let i = 0; i < parts.length; i++) if (parts[i] !== group.parts[i]) return false;
  }
  return true;
}

/**
 * Where an edge meets a port, as React Flow places it (the middle of the
 * handle's outer side). Cards this far out are drawn without their ports
 * (node-view.tsx), so the places are worked out from the card's size.
 * Undefined for a card not measured yet (nor given its box, offscreen.ts):
 * React Flow draws no edge to it either until it is, and the cards are hidden
 * meanwhile. Opening a 1,000-node flow worked out every edge twice before its
 * cards were measured (about 7 ms of script), for lines drawn at guessed
 * places before any card showed.
 */
function portPoint(
  node: FarNode,
  type: 'source' | 'target',
  handleId: string | null | undefined,
): { x: number; y: number; position: Position } | undefined {
  const { width, height } = node.measured;
  if (width === undefined || height === undefined) return undefined;
  const handle = portPlaces(node.data.node.type, width, height).find(
    (h) => h.type === type && (handleId ? h.id === handleId : true),
  );
  if (!handle) return undefined;
  const x = node.internals.positionAbsolute.x + handle.x;
  const y = node.internals.positionAbsolute.y + handle.y + (handle.height ?? PORT_SIZE) / 2;
  return handle.position === Position.Left
    ? { x, y, position: handle.position }
    : { x: x + (handle.width ?? PORT_SIZE), y, position: handle.position };
}
