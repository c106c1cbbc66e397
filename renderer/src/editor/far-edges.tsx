import { EdgeLabelRenderer, useStore, type Edge, type ReactFlowState } from '@xyflow/react';
import { memo, useMemo, useRef } from 'react';
import { useAppStore } from '../store/app-store';
import {
  drawingOf,
  KINDS,
  NONE_DRAGGED,
  NO_EDGES,
  pathOf,
  piecesOf,
  touches,
  type Drawing,
  type FarNode,
  type NodeLookup,
} from './far-paths';

/**
 * Every edge of a flow zoomed out so far that cards show their label alone
 * ('box' detail), drawn as a few SVG paths (plain, carried by the run shown,
 * selected; each of those by the edge's classes: error, false branch, loop;
 * for every 500 edges: see far-paths.ts) instead of React Flow's one `<svg>`
 * per edge. A 10,000-node flow fitted to the view has thousands of edges in
 * it: as separate SVGs they were most of what the browser laid out, hit-tested
 * and composited on every frame of a drag, for lines a fraction of a pixel
 * wide. They are drawn where React Flow draws them (the same bezier, the same
 * loop path, between the same ports), under the nodes. The cards carry no ports this far out either
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
  // Each piece's last drawing: a piece whose paths are all as they were is given it back, not drawn again.
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

const NONE_CARRIED: ReadonlySet<string> = new Set();

const selectNodes = (s: ReactFlowState) => s.nodes;
// The canvas's nodes are FlowRfNodes (canvas.tsx); React Flow's store is typed for any node.
const selectLookup = (s: ReactFlowState) => s.nodeLookup as unknown as NodeLookup;

/** The ids of the nodes being dragged, as one string ('' when none): it changes only when a drag starts or ends. */
function draggedIds(nodes: readonly { id: string; dragging?: boolean }[]): string {
  let ids = '';
  for (const node of nodes) if (node.dragging) ids += `${node.id}\n`;
  return ids;
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
  getNode: (id: string) => FarNode | undefined,
  point: { x: number; y: number },
  tolerance: number,
): string | undefined {
  const near: { id: string; d: string }[] = [];
  for (const edge of edges) {
    const d = pathOf(edge, getNode);
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
