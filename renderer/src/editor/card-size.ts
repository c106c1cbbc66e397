import { NODE_BORDER, NODE_MIN_HEIGHT, NODE_WIDTH, PORT_SIZE } from '../../../core/editing/layout';

/**
 * Gives the stylesheet the card's box (`--fb-card-width`, `--fb-card-min-height`,
 * `--fb-card-border`, `--fb-port-size`) from the one place the layout and the canvas's offscreen
 * nodes (offscreen.ts) take it too, so the three cannot drift apart.
 */
export function applyCardSize(style: CSSStyleDeclaration): void {
  style.setProperty('--fb-card-width', `${NODE_WIDTH}px`);
  style.setProperty('--fb-card-min-height', `${NODE_MIN_HEIGHT}px`);
  style.setProperty('--fb-card-border', `${NODE_BORDER}px`);
  style.setProperty('--fb-port-size', `${PORT_SIZE}px`);
}
