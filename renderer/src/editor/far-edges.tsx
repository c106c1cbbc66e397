import {
  EdgeLabelRenderer,
  getBezierPath,
  Position,
  useStore,
  type Edge,
  type InternalNode,
  type ReactFlowState,
} from '@xyflow/react';
import { memo, useMemo, useRef } from 'react';
import { PORT_SIZE } from '../../../core/editing/layout';
import type { FlowRfNode } from './node-view';
import { portPlaces } from './port-places';
import { loopPath } from './run-edge';
import { useAppStore } from '../store/app-store';

/**
 * Every edge of a flow zoomed out so far that cards show their label alone
 * ('box' detail), drawn as a few SVG paths (plain, carried by the run shown,
 * selected; each of those by the edge's classes: error, false branch, loop;
 * for every 500 edges: see PIECE_EDGES) instead of React Flow's one `<svg>`
 * per edge. A 10,000-node flow
 * fitted to the view has thousands of edges in it: as separate SVGs they were
 * most of what the browser laid out, hit-tested and composited on every frame
 * of a drag, for lines a fraction of a pixel wide. They are drawn where React
 * Flow draws them (the same bezier, the same loop path, between the same
 * ports), under the nodes. The cards carry no ports this far out either
 * (node-view.tsx): drawing a new edge needs a closer zoom. A click selects an
 * edge all the same (farEdgeAt).
 */
export const FarEdges = memo(function FarEdges({ edges, isRunShown }: { edges: readonly Edge[]; isRunShown: boolean }) {
  // The nodes array changes whenever a node moves or is measured; the lookup holds where each one is.
  const nodes = useStore(selectNodes);
  const nodeLookup = useStore(selectLookup);
  // Only while a run is shown does the layer listen to the run's marks (as RunEdge does).
  const carried = useAppStore((s) => (isRunShown ? s.carriedEdges : NONE_CARRIED));
  const moving = useMemo(() => draggedIds(nodes), [nodes]);
  const dragged = useMemo(() => new Set(moving.split('\n').filter((id) => id !== '')), [moving]);
  // While nodes are dragged, the edges that stay put keep their paths (most of the flow: rebuilding
  // them on every frame cost more than React Flow's own edges); only the dragged nodes' edges are drawn anew.
  const settled = moving === '' ? nodes : undefined;
  const pieces = useMemo(() => piecesOf(edges), [edges]);
  const drawings = useRef(new WeakMap<readonly Edge[], Drawing>());
  const stillPaths = useMemo(
    () =>
      pieces.map((piece) => {
        const drawn = drawingOf(piece, nodeLookup, carried, dragged, drawings.current.get(piece));
        drawings.current.set(piece, drawn);
        return drawn.paths;
      }),
    [pieces, nodeLookup, carried, dragged, settled],
  );
  const touching = useMemo(
    () => (dragged.size === 0 ? NO_EDGES : edges.filter((edge) => touches(edge, dragged))),
    [edges, dragged],
  );
  const movingPaths = useMemo(
    () => drawingOf(touching, nodeLookup, carried, NONE_DRAGGED).paths,
    [touching, nodeLookup, carried, nodes],
  );
  return (
    <EdgeLabelRenderer>
      <svg className="fb-far-edges" data-edges={edges.length} aria-hidden="true">
        {KINDS.flatMap((kind) =>
          [...stillPaths, movingPaths].flatMap((paths, i) =>
            paths
              .filter((path) => path.kind === kind)
              .map(({ edgeClass, d }) => (
                // Wrapped in the edge's own classes (error, false branch, loop), so their styles apply as to React Flow's.
                <g key={`${i}${kind}${edgeClass}`} className={edgeClass}>
                  <path className={kind} d={d} />
                </g>
              )),
          ),
        )}
      </svg>
    </EdgeLabelRenderer>
  );
});

/** How an edge is drawn, in drawing order: the selected ones on top. */
const KINDS = ['plain', 'carried', 'selected'] as const;
type Kind = (typeof KINDS)[number];
/** The edges drawn alike: one kind, the same classes (see mapper.ts's edgeClass), as one path. */
interface FarPath {
  kind: Kind;
  edgeClass: string;
  d: string;
}
const NONE_CARRIED: ReadonlySet<string> = new Set();
const NONE_DRAGGED: ReadonlySet<string> = new Set();
const NO_EDGES: readonly Edge[] = [];

const selectNodes = (s: ReactFlowState) => s.nodes;
// The canvas's nodes are FlowRfNodes (canvas.tsx); React Flow's store is typed for any node.
const selectLookup = (s: ReactFlowState) => s.nodeLookup as unknown as NodeLookup;
type NodeLookup = ReactFlowState<FlowRfNode>['nodeLookup'];

/** The ids of the nodes being dragged, as one string ('' when none): it changes only when a drag starts or ends. */
function draggedIds(nodes: readonly { id: string; dragging?: boolean }[]): string {
  let ids = '';
  for (const node of nodes) if (node.dragging) ids += `${node.id}\n`;
  return ids;
}

/** Whether the edge has an end on a dragged node. */
const touches = (edge: Edge, dragged: ReadonlySet<string>) => dragged.has(edge.source) || dragged.has(edge.target);

/**
 * How many edges are drawn as one piece. The edges that stay put are drawn
 * in pieces, each its own paths, so that grabbing or letting go of a card
 * draws anew only the pieces holding its edges: drawn whole, every grab and
 * drop in a 10,000-node flow joined all the paths into one again (6 ms) and
 * had the browser read a 760 KB path anew (about 8 ms more).
 */
const PIECE_EDGES = 500;

/** The edges in runs of PIECE_EDGES, in their order. */
function piecesOf(edges: readonly Edge[]): (readonly Edge[])[] {
  const pieces: (readonly Edge[])[] = [];
  for (let i = 0; i < edges.length; i += PIECE_EDGES) pieces.push(edges.slice(i, i + PIECE_EDGES));
  return pieces;
}

/** The path React Flow would draw for an edge (the same bezier or loop between the same ports); undefined until both ends are placed. */
function edgePath(edge: Edge, getNode: (id: string) => InternalNode<FlowRfNode> | undefined): string | undefined {
  const source = getNode(edge.source);
  const target = getNode(edge.target);
  const from = source && portPoint(source, 'source', edge.sourceHandle);
  const to = target && portPoint(target, 'target', edge.targetHandle);
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

type FarNode = InternalNode<FlowRfNode>;
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

/** The edge's path (see edgePath), from knownPaths when its two nodes stand where they stood. */
function pathOf(edge: Edge, lookup: NodeLookup): string | undefined {
  const source = lookup.get(edge.source);
  const target = lookup.get(edge.target);
  if (!source || !target) return undefined;
  const known = knownPaths.get(edge);
  if (known && standsAt(source, known.source) && standsAt(target, known.target)) return known.d;
  const d = edgePath(edge, (id) => lookup.get(id));
  if (d) knownPaths.set(edge, { source: placeOf(source), target: placeOf(target), d });
  return d;
}

/** Edges drawn as paths: each group's paths (one kind, one set of classes) and the paths they make. */
interface Drawing {
  groups: Map<string, { kind: Kind; edgeClass: string; parts: string[] }>;
  paths: FarPath[];
}

/**
 * The edges as paths, one for each kind and set of classes, leaving out those
 * with an end on a dragged node and those whose ends are not placed yet.
 * `before` (the same edges' last drawing) is given back when every group has
 * the same paths as then: nothing is joined again, and nothing drawn anew.
 */
function drawingOf(
  edges: readonly Edge[],
  lookup: NodeLookup,
  carried: ReadonlySet<string>,
  dragged: ReadonlySet<string>,
  before?: Drawing,
): Drawing {
  const groups: Drawing['groups'] = new Map();
  for (const edge of edges) {
    if (dragged.size > 0 && touches(edge, dragged)) continue;
    const path = pathOf(edge, lookup);
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
 * The edge drawn within `tolerance` of a point (flow coordinates), the
 * nearest first: what a click far out selects. The far paths take no pointer
 * events (hit-testing one path of thousands of curves on every pointer move
 * was part of what slowed dragging), so a click on the pane asks here. Each
 * edge's box is checked first; only edges whose box holds the point are
 * measured against their drawn curve.
 */
export function farEdgeAt(
  edges: readonly Edge[],
  getNode: (id: string) => InternalNode<FlowRfNode> | undefined,
  point: { x: number; y: number },
  tolerance: number,
): string | undefined {
  const near: { id: string; d: string }[] = [];
  for (const edge of edges) {
    const d = edgePath(edge, getNode);
    if (d && boxHolds(d, point, tolerance)) near.push({ id: edge.id, d });
  }
  // The narrowest stroke that reaches the point tells the nearest edge.
  for (const width of [tolerance / 2, tolerance, 2 * tolerance]) {
    const hit = near.find(({ d }) => strokeHolds(d, point, width));
    if (hit) return hit.id;
  }
  return undefined;
}

/** Whether the box around a path's points (its ends and control points) holds the point, give or take `margin`. */
function boxHolds(d: string, point: { x: number; y: number }, margin: number): boolean {
  const numbers = d.match(/-?[\d.]+(?:e-?\d+)?/g) ?? [];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const x = Number(numbers[i]);
    const y = Number(numbers[i + 1]);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  return point.x >= minX - margin && point.x <= maxX + margin && point.y >= minY - margin && point.y <= maxY + margin;
}

const SVG = 'http://www.w3.org/2000/svg';
let probe: SVGPathElement | undefined;
/** Whether a stroke of `width` along the path covers the point: the browser's own geometry, on a hidden path. */
function strokeHolds(d: string, point: { x: number; y: number }, width: number): boolean {
  if (!probe) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', '0');
    svg.setAttribute('height', '0');
    svg.setAttribute('aria-hidden', 'true');
    svg.style.position = 'absolute';
    svg.style.visibility = 'hidden';
    probe = document.createElementNS(SVG, 'path');
    probe.setAttribute('fill', 'none');
    probe.setAttribute('stroke', 'black');
    svg.appendChild(probe);
    document.body.appendChild(svg);
  }
  probe.setAttribute('d', d);
  probe.setAttribute('stroke-width', String(width));
  return probe.isPointInStroke(new DOMPoint(point.x, point.y));
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
  node: InternalNode<FlowRfNode>,
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
