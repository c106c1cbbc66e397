import type { Flow, Position } from '../../../core/model/flow';
import { NODE_WIDTH } from './viewport';

const HEIGHT = 90;

/** Left-to-right layered layout (ELK), ports respected through edge order. */
export async function layoutFlow(flow: Flow): Promise<{ id: string; position: Position }[]> {
  // ELK is large; it loads the first time someone asks for a layout.
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const graph = await new ELK().layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
    },
    children: flow.nodes.map((n) => ({ id: n.id, width: NODE_WIDTH, height: HEIGHT })),
    edges: flow.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  return (graph.children ?? []).map((c) => ({
    id: c.id,
    position: { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) },
  }));
}
