import { useStore, type ReactFlowState } from '@xyflow/react';
import { memo } from 'react';

/** Nodes snap to this grid (flow units); the dots mark it. */
export const GRID: [number, number] = [20, 20];

/** Closest two dots may come on screen; zoomed out further, every other row and column of dots is left out. */
const MIN_SCREEN_GAP = 10;
/** Smallest dot drawn (radius, px), React Flow's at zoom 1: a CSS gradient's dot much smaller is not drawn at all. */
const MIN_DOT_RADIUS = 0.5;

/**
 * The dotted grid behind the cards, one dot on each grid point, as a CSS
 * background. Zoomed out, as in Figma or Miro, it keeps every 2nd, 4th, 8th…
 * dot, so they stay at least MIN_SCREEN_GAP apart.
 *
 * Not React Flow's Background: its SVG was laid out and painted again on each
 * frame in which a card or the far edges changed (a run's statuses, many a
 * second), with every card under it: a 200-card flow's run drew at 37–46
 * frames a second, and at 49–57 with the background hidden. A CSS background
 * is painted again only when the view moves.
 */
export const CanvasGrid = memo(function CanvasGrid() {
  const [x, y, zoom] = useStore(selectTransform);
  const spread = spreadAt(zoom);
  const gap = GRID[0] * spread * zoom;
  // React Flow's dot: 1 unit wide, as large as the grid it marks.
  const radius = Math.max(MIN_DOT_RADIUS, (spread * zoom) / 2);
  return (
    <div
      className="fb-canvas-grid"
      aria-hidden="true"
      style={{
        // The gradient's dot is in the middle of its tile: the tiles start half a gap before each grid point.
        // Solid to half a pixel inside the edge, faded to half a pixel outside it: the edge antialiased, as an SVG circle's.
        backgroundImage: `radial-gradient(circle, var(--fb-grid-dot) ${radius - 0.5}px, transparent ${radius + 0.5}px)`,
        backgroundSize: `${gap}px ${gap}px`,
        backgroundPosition: `${x - gap / 2}px ${y - gap / 2}px`,
      }}
    />
  );
});

const selectTransform = (s: ReactFlowState) => s.transform;

/** 1, 2, 4…: how many grid cells apart the dots are at this zoom. */
export function spreadAt(zoom: number): number {
  let spread = 1;
  while (GRID[0] * spread * zoom < MIN_SCREEN_GAP && spread < 1024) spread *= 2;
  return spread;
}
