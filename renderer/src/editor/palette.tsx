import { useReactFlow } from '@xyflow/react';
import { freePosition } from '../../../core/editing/placement';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';

/** What a palette item carries when dragged onto the canvas: its node type. */
export const PALETTE_MIME = 'application/x-flowbench-node-type';

/** Adds a node of a type as a click on the palette does: beside the selection, else in free space in view. */
export function useAddNode(): (type: string) => void {
  const { screenToFlowPosition } = useReactFlow();
  return (type: string) => {
    const canvas = document.querySelector('.canvas')?.getBoundingClientRect();
    const topLeft = screenToFlowPosition({ x: canvas?.left ?? 0, y: canvas?.top ?? 0 });
    const bottomRight = screenToFlowPosition({ x: canvas?.right ?? 0, y: canvas?.bottom ?? 0 });
    const view = { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
    const { flow, selectedNodes, addNode } = useAppStore.getState();
    // Beside the selected node (the next step people add), else in free space in view: never on another card.
    const selected = flow?.nodes.find((n) => n.id === selectedNodes.at(-1))?.position;
    addNode(type, freePosition(flow?.nodes ?? [], selected, view));
  };
}

/** Node types to drag onto the canvas, or click to add in the middle of the view. */
export function Palette() {
  const add = useAddNode();
  return (
    <aside className="palette" aria-label="Node palette">
      <h2>Add</h2>
      {nodeRegistry.all().map((definition) => (
        <button
          key={definition.type}
          className={`palette-item cat-${definition.category}`}
          draggable
          title={definition.description}
          data-testid={`palette-${definition.type}`}
          onDragStart={(e) => {
            e.dataTransfer.setData(PALETTE_MIME, definition.type);
            e.dataTransfer.effectAllowed = 'move';
          }}
          onClick={() => add(definition.type)}
        >
          {definition.label}
        </button>
      ))}
    </aside>
  );
}
