import type { NodeChange, Viewport } from '@xyflow/react';
import { NODE_MIN_HEIGHT, NODE_WIDTH } from '../../../core/editing/layout';
import { isNoteNode, type CanvasNode } from './mapper';
import type { FlowRfNode } from './node-view';
import { portPlaces } from './port-places';

/**
 * React Flow draws every node it has not measured yet, in view or not, even
 * with onlyRenderVisibleElements: it needs each node's size and port places to
 * draw edges. A 10,000-node flow fitted to the view shows about half its nodes,
 * so opening it drew (and then dropped) thousands of cards nobody could see.
 * Nodes outside the opening view are given their box and ports up front
 * instead, from the card's box (core/editing/layout.ts, which the stylesheet
 * draws too); React Flow measures each one for real when it first comes into
 * view, and from then on the real places count.
 *
 * A flow that opens zoomed far out (cards drawn without ports, FarEdges
 * drawing the edges) has the cards in view given their box too, whole: React
 * Flow shows a card only once it has its box, and measured, a portless card
 * has nothing to tell but the box it is given. Opening a 1,000-node flow drew
 * every card hidden, measured them all, and drew them again to show them (two
 * renders of every card and a garbage collection of the first: 590 ms to an
 * interactive canvas here against 490 once they are given their box).
 */

/**
 * A node given its box (as `measured`, which React Flow's fitView and its "all
 * nodes measured" state go by) and the ports that box has. For a node not
 * drawn, the height is given half a pixel short of the real one (cards are
 * whole pixels, NODE_MIN_HEIGHT at least), so once the card is drawn React Flow
 * finds it a different size, measures its ports, and reports it
 * (dropDeclaredOnceMeasured). A portless card in view is given its box whole:
 * React Flow then shows it at once, and measures it only if it is another size.
 */
function declared(node: FlowRfNode, width = NODE_WIDTH, height = NODE_MIN_HEIGHT, isWhole = false): FlowRfNode {
  return {
    ...node,
    measured: { width, height: isWhole ? height : height - 0.5 },
    handles: portPlaces(node.data.node.type, width, height),
  };
}

/**
 * The nodes to open with: those outside the view that `viewport` and the
 * canvas size give are declared, and with `isPortless` (cards drawn without
 * ports at the opening zoom) those in view too, with their whole box.
 */
export function declareOpening(
  nodes: CanvasNode[],
  viewport: Viewport,
  width: number,
  height: number,
  isPortless: boolean,
): CanvasNode[] {
  const left = -viewport.x / viewport.zoom;
  const top = -viewport.y / viewport.zoom;
  const right = left + width / viewport.zoom;
  const bottom = top + height / viewport.zoom;
  return nodes.map((node) => {
    // A note has its box already, and no ports.
    if (isNoteNode(node)) return node;
    const { x, y } = node.position;
    const isInView = x < right && x + NODE_WIDTH > left && y < bottom && y + NODE_MIN_HEIGHT > top;
    if (!isInView) return declared(node);
    return isPortless ? declared(node, NODE_WIDTH, NODE_MIN_HEIGHT, true) : node;
  });
}

/**
 * The nodes after React Flow's changes, the ones it has just measured without
 * their declared ports: React Flow takes declared ports over measured ones
 * each time a node object changes, so they go once the real places are known.
 */
export function dropDeclaredOnceMeasured(
  nodes: CanvasNode[],
  changes: readonly NodeChange<CanvasNode>[],
): CanvasNode[] {
  const measured = new Set<string>();
  for (const change of changes) if (change.type === 'dimensions') measured.add(change.id);
  if (measured.size === 0) return nodes;
  return nodes.map((node) => (node.handles && measured.has(node.id) ? withoutDeclaredPorts(node) : node));
}

/** The node without the ports it was given: React Flow's measured ones count. */
function withoutDeclaredPorts(node: CanvasNode): CanvasNode {
  const measuredNode = { ...node };
  delete measuredNode.handles;
  return measuredNode;
}

/**
 * The nodes once cards have their ports again (they have none while FarEdges
 * draws the edges): React Flow measures the cards drawn now (canvas.tsx), and
 * the others get their ports declared again, at the places their last
 * measured box gives, as at opening. React Flow would otherwise keep the
 * portless places it measured and draw no edge to them until they change size.
 * A card drawn now that was given its ports (one in view at a far-out opening)
 * lets them go: React Flow takes given ports over the ones it has just measured.
 */
export function redeclareUndrawn(nodes: CanvasNode[], drawn: ReadonlySet<string>): CanvasNode[] {
  return nodes.map((node) => {
    if (isNoteNode(node)) return node;
    if (drawn.has(node.id)) return node.handles ? withoutDeclaredPorts(node) : node;
    // A height declared before is half a pixel short: rounding gives the card's own back.
    const height = node.measured?.height === undefined ? undefined : Math.round(node.measured.height);
    return declared(node, node.measured?.width, height);
  });
}
