import { useState } from 'react';
import { typesToJoin, type DraggedPort } from '../../../core/editing/edits';
import type { Position } from '../../../core/model/flow';
import { useAppStore } from '../store/app-store';
import { useModalDialog } from '../use-modal-dialog';

/** A connection let go on empty canvas: where (on screen, and in the flow) and from which port. */
export interface Joining {
  screen: { x: number; y: number };
  at: Position;
  from: DraggedPort;
}

/** How far the menu keeps from the window's right and bottom edges, so it opens whole. */
const MENU_WIDTH = 280;
const MENU_HEIGHT = 360;

/**
 * The node types a connection let go on empty canvas may add, already
 * joined to the port it came from (n8n's node creator, Rivet's and
 * ComfyUI's search on a dropped wire). Typing filters them; Enter adds the
 * first; Escape or a click outside closes it with nothing added.
 */
export function JoinMenu({ joining, onClose }: { joining: Joining; onClose: () => void }) {
  const dialog = useModalDialog();
  const [words, setWords] = useState('');
  const wanted = words.trim().toLowerCase();
  const types = typesToJoin(joining.from).filter(
    (d) => !wanted || d.label.toLowerCase().includes(wanted) || d.type.includes(wanted),
  );
  const add = (type: string) => {
    useAppStore.getState().addJoinedNode(type, joining.at, joining.from);
    onClose();
  };
  const left = Math.max(8, Math.min(joining.screen.x, window.innerWidth - MENU_WIDTH - 8));
  const top = Math.max(8, Math.min(joining.screen.y, window.innerHeight - MENU_HEIGHT - 8));
  return (
    <dialog
      ref={dialog}
      className="join-menu"
      aria-label={joining.from.side === 'source' ? 'Add a node after this one' : 'Add a node before this one'}
      style={{ left, top }}
      onClose={onClose}
      // A click on the backdrop lands on the dialog itself: outside its content, it closes.
      onClick={(e) => e.target === e.currentTarget && dialog.current?.close()}
    >
      <input
        aria-label="Node type"
        placeholder="Add a node joined here…"
        autoFocus
        value={words}
        onChange={(e) => setWords(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && types[0]) add(types[0].type);
        }}
      />
      {types.length === 0 && <p className="muted">No node type called “{words}” can be joined here.</p>}
      <ul>
        {types.map((definition) => (
          <li key={definition.type}>
            <button className={`join-item cat-${definition.category}`} onClick={() => add(definition.type)}>
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
