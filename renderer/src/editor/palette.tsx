import { useReactFlow } from '@xyflow/react';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { PALETTE_MIME } from './canvas';

/** Node types to drag onto the canvas, or click to add in the middle of the view. */
export function Palette() {
  const { screenToFlowPosition } = useReactFlow();
  const add = (type: string) => {
    const canvas = document.querySelector('.canvas')?.getBoundingClientRect();
    const center = canvas
      ? screenToFlowPosition({ x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 })
      : { x: 0, y: 0 };
    const count = useAppStore.getState().flow?.nodes.length ?? 0;
    // Nodes added in a row fan out instead of stacking on one spot.
    const offset = (count % 6) * 30;
    useAppStore
      .getState()
      .addNode(type, { x: Math.round((center.x + offset) / 20) * 20, y: Math.round((center.y + offset) / 20) * 20 });
  };
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
