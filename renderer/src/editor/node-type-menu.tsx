import { useState, type KeyboardEvent } from 'react';
import { typesToJoin, type DraggedPort } from '../../../core/editing/edits';
import type { Position } from '../../../core/model/flow';
import type { NodeDefinition } from '../../../core/nodes/define-node';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { useModalDialog } from '../use-modal-dialog';

/** How far the menu keeps from the window's right and bottom edges, so it opens whole. */
const MENU_WIDTH = 280;
const MENU_HEIGHT = 360;

/**
 * Node types to add at a place on the canvas, opened there: where a
 * connection was let go on empty canvas (added joined to its port, as n8n's
 * node creator and Rivet's and ComfyUI's search on a dropped wire do), or on
 * an edge (put in its middle, n8n's + on a connection). Typing filters them;
 * Enter adds the first, the arrow keys walk the list; Escape or a click
 * outside closes it with nothing added.
 */
export function NodeTypeMenu({
  label,
  types,
  screen,
  onChoose,
  onClose,
}: {
  label: string;
  types: readonly NodeDefinition[];
  /** Where it opens, in window coordinates. */
  screen: { x: number; y: number };
  onChoose: (type: string) => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const [words, setWords] = useState('');
  const wanted = words.trim().toLowerCase();
  const shown = types.filter((d) => !wanted || d.label.toLowerCase().includes(wanted) || d.type.includes(wanted));
  const choose = (type: string) => {
    onChoose(type);
    onClose();
  };
  const left = Math.max(8, Math.min(screen.x, window.innerWidth - MENU_WIDTH - 8));
  const top = Math.max(8, Math.min(screen.y, window.innerHeight - MENU_HEIGHT - 8));
  return (
    <dialog
      ref={dialog}
      className="node-type-menu"
      aria-label={label}
      style={{ left, top }}
      onClose={onClose}
      // A click on the backdrop lands on the dialog itself: outside its content, it closes.
      onClick={(e) => e.target === e.currentTarget && dialog.current?.close()}
      onKeyDown={(e) => moveFocus(e, dialog.current)}
    >
      <input
        aria-label="Node type"
        placeholder="Add a node here…"
        autoFocus
        value={words}
        onChange={(e) => setWords(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && shown[0]) choose(shown[0].type);
        }}
      />
      {shown.length === 0 && <p className="muted">No node type called “{words}” fits here.</p>}
      <ul>
        {shown.map((definition) => (
          <li key={definition.type}>
            <button className={`node-type-item cat-${definition.category}`} onClick={() => choose(definition.type)}>
              <strong>{definition.label}</strong>
              <span className="muted" title={definition.description}>
                {definition.description}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </dialog>
  );
}

/**
 * The arrow keys walk from the filter field down the types and back (a menu's
 * items), as a menu's do. Escape closes the menu and nothing more: the
 * canvas's Escape (which clears the selection) does not see it.
 */
export function moveFocus(event: KeyboardEvent<HTMLDialogElement>, dialog: HTMLDialogElement | null) {
  if (event.key === 'Escape') return event.stopPropagation();
  if ((event.key !== 'ArrowDown' && event.key !== 'ArrowUp') || !dialog) return;
  const stops = [...dialog.querySelectorAll<HTMLElement>('input, button')];
  const at = stops.indexOf(document.activeElement as HTMLElement);
  const next = stops[Math.min(stops.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))];
  event.preventDefault();
  next?.focus();
}

/** The node types to add at `at`: joined to `from` when given, as the menu's title says. */
export function AddNodeMenu({
  screen,
  at,
  from,
  onAdded,
  onClose,
}: {
  screen: { x: number; y: number };
  at: Position;
  from: DraggedPort | undefined;
  onAdded: (at: Position) => void;
  onClose: () => void;
}) {
  const { addJoinedNode, addNode } = useAppStore.getState();
  const added = (id: string | undefined) => id !== undefined && onAdded(at);
  const label = !from
    ? 'Add a node'
    : from.side === 'source'
      ? 'Add a node after this one'
      : 'Add a node before this one';
  return (
    <NodeTypeMenu
      label={label}
      types={from ? typesToJoin(from) : nodeRegistry.all()}
      screen={screen}
      // Unjoined when the node it was to join is gone (deleted while the menu was open).
      onChoose={(type) => added((from && addJoinedNode(type, at, from)) ?? addNode(type, at))}
      onClose={onClose}
    />
  );
}
