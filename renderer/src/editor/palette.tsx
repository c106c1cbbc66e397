import { useReactFlow } from '@xyflow/react';
import { StickyNote } from 'lucide-react';
import { useCallback } from 'react';
import { notePlace } from '../../../core/editing/notes';
import { portAfter } from '../../../core/editing/edits';
import { freePosition, shiftToShow, type ViewBox } from '../../../core/editing/placement';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';

/** What a palette item carries when dragged onto the canvas: its node type. */
export const PALETTE_MIME = 'application/x-flowbench-node-type';
/** What the sticky note item carries when dragged. */
export const NOTE_MIME = 'application/x-flowbench-note';

type ScreenToFlow = (point: { x: number; y: number }) => { x: number; y: number };

/** The part of the flow the canvas shows now, in flow coordinates. */
export function viewBoxOf(screenToFlowPosition: ScreenToFlow): ViewBox {
  const canvas = document.querySelector('.canvas')?.getBoundingClientRect();
  const topLeft = screenToFlowPosition({ x: canvas?.left ?? 0, y: canvas?.top ?? 0 });
  const bottomRight = screenToFlowPosition({ x: canvas?.right ?? 0, y: canvas?.bottom ?? 0 });
  return { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
}

/** What panToShow needs of React Flow: its instance, or what useReactFlow gives. */
interface Viewport {
  screenToFlowPosition: ScreenToFlow;
  getViewport(): { x: number; y: number; zoom: number };
  setViewport(viewport: { x: number; y: number; zoom: number }, options?: { duration?: number }): Promise<boolean>;
}

/** Moves the view as little as it takes for a card at `at` (flow coordinates) to be seen whole. */
export function panToShow(view: Viewport, at: { x: number; y: number }): void {
  const shift = shiftToShow(viewBoxOf(view.screenToFlowPosition), at);
  if (shift.x === 0 && shift.y === 0) return;
  const { x, y, zoom } = view.getViewport();
  void view.setViewport({ x: x - shift.x * zoom, y: y - shift.y * zoom, zoom }, { duration: 200 });
}

function useViewBox(): () => ViewBox {
  const { screenToFlowPosition } = useReactFlow();
  return useCallback(() => viewBoxOf(screenToFlowPosition), [screenToFlowPosition]);
}

/**
 * Adds a node of a type as a click on the palette does: beside the selection,
 * joined after it when one node is selected (as n8n's nodes panel and N do),
 * else in free space in view.
 */
export function useAddNode(): (type: string) => void {
  const view = useReactFlow();
  return (type: string) => {
    const { flow, selectedNodes, addNode, addJoinedNode } = useAppStore.getState();
    // Beside the selected node (the next step people add), else in free space in view: never on another card.
    const beside = flow?.nodes.find((n) => n.id === selectedNodes.at(-1));
    const at = freePosition(flow?.nodes ?? [], beside?.position, viewBoxOf(view.screenToFlowPosition));
    const from = selectedNodes.length === 1 && beside ? portAfter(beside) : undefined;
    // A type that cannot follow it (an input node), or a node nothing follows (an output): added unjoined.
    if (!(from && addJoinedNode(type, at, from))) addNode(type, at);
    // A canvas full of cards leaves no free row in view: the view goes to the card, or the click seems to do nothing.
    panToShow(view, at);
  };
}

/** Adds a sticky note in free space in view (the palette, Shift+S). */
export function useAddNote(): () => void {
  const viewBox = useViewBox();
  return useCallback(() => {
    const { flow, addNote } = useAppStore.getState();
    if (flow) addNote(notePlace(flow, viewBox()));
  }, [viewBox]);
}

/** Node types to drag onto the canvas, or click to add (after the selected node, joined); a sticky note last. */
export function Palette() {
  const add = useAddNode();
  const addNote = useAddNote();
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
      <button
        className="palette-item palette-note"
        draggable
        title="A note for people reading the flow: runs and MCP clients never see it"
        data-testid="palette-note"
        onDragStart={(e) => {
          e.dataTransfer.setData(NOTE_MIME, 'note');
          e.dataTransfer.effectAllowed = 'move';
        }}
        onClick={addNote}
      >
        <StickyNote size={14} aria-hidden /> Sticky note
      </button>
    </aside>
  );
}
