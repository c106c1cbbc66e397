import { getViewportForBounds, type Viewport } from '@xyflow/react';
import { NODE_HEIGHT, NODE_WIDTH } from '../../../core/editing/layout';
import type { Flow } from '../../../core/model/flow';
export const MIN_ZOOM = 0.05;
/**
 * Below this zoom a card's small print (12 px) is under 9 px on screen, too
 * small to read, so cards show their icon, label and summary in large type
 * instead; below ICONLESS_ZOOM their label alone. A flow opens fitted to the
 * view, and whichever view it opens in reads at 9 px or more down to ICONLESS_ZOOM.
 */
export const COMPACT_ZOOM = 0.75;
/** Below this the large summary (18 px) would be under 9 px too: cards show their label alone, and draw faster. */
export const ICONLESS_ZOOM = 0.5;

/** How much a card shows: everything, its icon, label and summary in large type, or its label alone. */
export type NodeDetail = 'full' | 'label' | 'box';

export function detailAt(zoom: number): NodeDetail {
  return zoom >= COMPACT_ZOOM ? 'full' : zoom >= ICONLESS_ZOOM ? 'label' : 'box';
}

/** The label's type far out (styles.css, .fb-node-compact). */
const BOX_LABEL_PX = 22;
/**
 * Below this zoom a far-out card's label would be under 4 px on screen, a
 * smudge no one reads: cards leave it out (its tooltip keeps it), as design
 * tools do. A 10,000-card flow fitted to the view then dragged at about 35
 * frames a second instead of 22–26 (its labels, 1.1 px tall, were a third of
 * what the browser layerized each frame).
 */
export const LABEL_ZOOM = 4 / BOX_LABEL_PX;

/** Whether far-out cards show their label at this zoom. */
export function labelsShownAt(zoom: number): boolean {
  return zoom >= LABEL_ZOOM;
}

/** The margin around a flow fitted to the view, as a share of its size (React Flow's fitView default). */
const FIT_PADDING = 0.1;
/** The thinnest side margin a flow may open with when that shows its cards one level of detail closer. */
const TIGHT_PADDING = 0.02;

/**
 * The viewport that shows the whole flow, computed from the saved positions
 * before anything is drawn. React Flow's own fitView waits for every node to
 * be measured and then draws again; this way the first drawing is the final
 * one, at the zoom that decides how much each node shows.
 *
 * A flow that would fit just under a level of detail with the usual margin,
 * but fits at that level with thin side margins, opens at that level: a
 * six-card chain on a laptop's window shows icons and summaries, not bare
 * labels, for the sake of 40 pixels of margin.
 */
export function initialViewport(flow: Flow, width: number, height: number): Viewport {
  if ((flow.nodes.length === 0 && flow.notes.length === 0) || width === 0 || height === 0)
    return { x: 0, y: 0, zoom: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const include = (x: number, y: number, boxWidth: number, boxHeight: number) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + boxWidth);
    maxY = Math.max(maxY, y + boxHeight);
  };
  for (const { position } of flow.nodes) include(position.x, position.y, NODE_WIDTH, NODE_HEIGHT);
  // The notes too: what someone wrote beside the flow is part of what opens in view.
  for (const note of flow.notes) include(note.position.x, note.position.y, note.width, note.height);
  const bounds = { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
  const fitted = getViewportForBounds(bounds, width, height, MIN_ZOOM, 1, FIT_PADDING);
  // Only the side margins thin: every card is NODE_WIDTH wide, but a card may be taller than NODE_HEIGHT.
  const fits = (zoom: number) =>
    bounds.width * zoom * (1 + TIGHT_PADDING) <= width && bounds.height * zoom * (1 + FIT_PADDING) <= height;
  const level = [COMPACT_ZOOM, ICONLESS_ZOOM].find((zoom) => fitted.zoom < zoom && fits(zoom));
  // At that zoom, centred (the zoom is pinned, so the bounds are centred in the view).
  return level === undefined ? fitted : getViewportForBounds(bounds, width, height, level, level, 0);
}
