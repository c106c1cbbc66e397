import '@xyflow/react/dist/style.css';
import { applyNodeChanges, Background, MiniMap, ReactFlow, type Edge, type Node, type NodeChange } from '@xyflow/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The benchmark's baseline: the same nodes and edges in React Flow with its
 * default node view and no Flowbench code. `?nodes=N` sets the size.
 */
declare global {
  interface Window {
    benchReady?: number;
  }
}

const count = Number(new URLSearchParams(location.search).get('nodes') ?? 100);
const initialNodes: Node[] = Array.from({ length: count }, (_, i) => ({
  id: `n${i}`,
  position: { x: (i % 50) * 220, y: Math.floor(i / 50) * 140 },
  data: { label: `Step ${i}` },
  style: { width: 220, height: 90 },
}));
const initialEdges: Edge[] = Array.from({ length: count - 1 }, (_, i) => ({
  id: `e${i}`,
  source: `n${i}`,
  target: `n${i + 1}`,
}));

function Bare() {
  const [nodes, setNodes] = useState(initialNodes);
  return (
    <ReactFlow
      nodes={nodes}
      edges={initialEdges}
      onNodesChange={(changes: NodeChange[]) => setNodes((n) => applyNodeChanges(changes, n))}
      onlyRenderVisibleElements
      minZoom={0.05}
      fitView
      fitViewOptions={{ maxZoom: 1 }}
      onInit={() => (window.benchReady = performance.now())}
    >
      <Background />
      <MiniMap />
    </ReactFlow>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Bare />
    </StrictMode>,
  );
