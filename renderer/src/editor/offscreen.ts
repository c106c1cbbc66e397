import type { NodeChange, Viewport } from '@xyflow/react';
import { NODE_MIN_HEIGHT, NODE_WIDTH } from '../../../core/editing/layout';
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
 */

/**
 * The height given as "measured". Half a pixel short of any real card (whole
 * pixels, NODE_MIN_HEIGHT at least), so React Flow always finds the card it
 * draws a different size, measures its ports, and reports it (dropDeclaredOnceMeasured).
 */
const DECLARED_HEIGHT = NODE_MIN_HEIGHT - 0.5;

/**
 * The nodes to open with: those outside the view that `viewport` and the
 * canvas size give carry their box (as `measured`, which React Flow's fitView
 * and its "all nodes measured" state go by) and their ports.
 */
export function declareOffscreen(nodes: FlowRfNode[], viewport: Viewport, width: number, height: number): FlowRfNode[] {
  const left = -viewport.x / viewport.zoom;
  const top = -viewport.y / viewport.zoom;
  const right = left + width / viewport.zoom;
  const bottom = top + height / viewport.zoom;
  return nodes.map((node) => {
    const { x, y } = node.position;
    const isInView = x < right && x + NODE_WIDTH > left && y < bottom && y + NODE_MIN_HEIGHT > top;
    if (isInView) return node;
    return {
      ...node,
      measured: { width: NODE_WIDTH, height: DECLARED_HEIGHT },
      handles: portPlaces(node.data.node.type),
    };
  });
}

/**
 * The nodes after React Flow's changes, the ones it has just measured without
 * their declared ports: React Flow takes declared ports over measured ones
 * each time a node object changes, so they go once the real places are known.
 */
export function dropDeclaredOnceMeasured(
  nodes: FlowRfNode[],
  changes: readonly NodeChange<FlowRfNode>[],
): FlowRfNode[] {
  const measured = new Set<string>();
  for (const change of changes) if (change.type === 'dimensions') measured.add(change.id);
  if (measured.size === 0) return nodes;
  return nodes.map((node) => {
    if (!node.handles || !measured.has(node.id)) return node;
    const measuredNode = { ...node };
    delete measuredNode.handles;
    return measuredNode;
  });
}

/**
 * The nodes once cards have their ports again (they have none while FarEdges
 * draws the edges): React Flow measures the cards drawn now (canvas.tsx), and
 * the others get their ports declared again, at the places their last
 * measured box gives, as at opening. React Flow would otherwise keep the
 * portless places it measured and draw no edge to them until they change size.
 */
export function redeclareUndrawn(nodes: FlowRfNode[], drawn: ReadonlySet<string>): FlowRfNode[] {
  return nodes.map((node) => {
    if (drawn.has(node.id)) return node;
    const width = node.measured?.width ?? NODE_WIDTH;
    const height = Math.round(node.measured?.height ?? NODE_MIN_HEIGHT);
    return {
      ...node,
      // Half a pixel short, as DECLARED_HEIGHT: drawn, the card measures different and its real ports replace these.
      measured: { width, height: height - 0.5 },
      handles: portPlaces(node.data.node.type, width, height),
    };
  });
}
