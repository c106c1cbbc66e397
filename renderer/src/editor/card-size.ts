import { NODE_BORDER, NODE_MIN_HEIGHT, NODE_WIDTH, PORT_SIZE } from '../../../core/editing/layout';

/**
 * Gives the stylesheet the card's box from the one place the layout and the
 * canvas's offscreen nodes (offscreen.ts) take it too, so the three cannot
 * drift apart: a rule of plain lengths for the card (width, min-height,
 * border width) and `--fb-port-size` for its ports.
 *
 * Plain lengths, not custom properties the card's rule reads with var():
 * Chrome substitutes every var() of a box property in each card's style each
 * time it computes styles. A 1,000-node flow's cards took 27 ms a full style
 * recalculation with their box and spacing as var()s and 14 ms without, and
 * opening the flow recalculates them twice (styles.css's `.fb-node` says the same).
 */
export function applyCardSize(document: Document): void {
  document.documentElement.style.setProperty('--fb-port-size', `${PORT_SIZE}px`);
  const rule = document.createElement('style');
  rule.textContent = `.fb-node { width: ${NODE_WIDTH}px; min-height: ${NODE_MIN_HEIGHT}px; border-width: ${NODE_BORDER}px; }`;
  document.head.append(rule);
}
