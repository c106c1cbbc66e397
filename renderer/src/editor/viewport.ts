import { getViewportForBounds, type Viewport } from '@xyflow/react';
import type { Flow } from '../../../core/model/flow';

/** Every node view is this wide (styles.css) and at least this tall; close enough to fit a flow before it is measured. */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;
export const MIN_ZOOM = 0.05;
/** Below this zoom a node's small print is unreadable, so node views show their label only. */
export const COMPACT_ZOOM = 0.45;

/**
 * The viewport that shows the whole flow, computed from the saved positions
 * before anything is drawn. React Flow's own fitView waits for every node to
 * be measured and then draws again; this way the first drawing is the final
 * one, at the zoom that decides how much each node shows.
 */
export function initialViewport(flow: Flow, width: number, height: number): Viewport {
  if (flow.nodes.length === 0 || width === 0 || height === 0) return { x: 0, y: 0, zoom: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const { position } of flow.nodes) {
    minX = Math.min(minX, position.x);
    minY = Math.min(minY, position.y);
    maxX = Math.max(maxX, position.x + NODE_WIDTH);
    maxY = Math.max(maxY, position.y + NODE_HEIGHT);
  }
  return getViewportForBounds(
    { x: minX, y: minY, width: maxX - minX, height: maxY - minY },
    width,
    height,
    MIN_ZOOM,
    1,
    0.1,
  );
}
