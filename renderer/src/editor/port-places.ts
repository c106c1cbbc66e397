import { Position, type NodeHandle } from '@xyflow/react';
import { NODE_BORDER, NODE_MIN_HEIGHT, NODE_WIDTH, PORT_SIZE } from '../../../core/editing/layout';
import type { PortSpec } from '../../../core/model/node-catalogue';
import { nodeRegistry } from '../../../core/nodes/registry';

/**
 * Where a card's ports are, worked out instead of measured, as node-view lays
 * them out: inputs on the left side, outputs on the right, each handle centred
 * on the side (a lone one in the middle, several in rows beside the title; see
 * portTop), all inside the card's border. For cards React Flow has not drawn
 * (offscreen.ts) and for cards drawn without ports (far-edges.tsx).
 */
export function portPlaces(nodeType: string, width = NODE_WIDTH, height = NODE_MIN_HEIGHT): NodeHandle[] {
  const key = `${nodeType}\u0000${width}\u0000${height}`;
  let handles = places.get(key);
  if (!handles) {
    const definition = nodeRegistry.get(nodeType);
    handles = [
      ...sideHandles(definition?.inputs ?? [], 'target', width, height),
      ...sideHandles(definition?.outputs ?? [], 'source', width, height),
    ];
    // Cards come in few sizes; a flow with many measured heights does not grow this past reason.
    if (places.size > 1000) places.clear();
    places.set(key, handles);
  }
  return handles;
}

const places = new Map<string, NodeHandle[]>();

/**
 * How far below the top of the card's padding box a port's centre sits. A lone
 * port is in the middle. Several ports are rows beside the card's title, at
 * fixed places however tall the card grows (a run's line under it), so their
 * labels never share a row with the summary, which then has the card's whole width.
 */
export function portTop(index: number, count: number, innerHeight: number): number {
  return count > 1 ? ((NODE_MIN_HEIGHT - 2 * NODE_BORDER) * (index + 1)) / (count + 2) : innerHeight / 2;
}

function sideHandles(
  ports: readonly PortSpec[],
  type: 'source' | 'target',
  width: number,
  height: number,
): NodeHandle[] {
  const isSource = type === 'source';
  return ports.map((port, i) => ({
    id: port.id,
    type,
    position: isSource ? Position.Right : Position.Left,
    // On the edges of the card's padding box (inside its border), as the stylesheet places handles.
    x: (isSource ? width - NODE_BORDER : NODE_BORDER) - PORT_SIZE / 2,
    y: NODE_BORDER + portTop(i, ports.length, height - 2 * NODE_BORDER) - PORT_SIZE / 2,
    width: PORT_SIZE,
    height: PORT_SIZE,
  }));
}
