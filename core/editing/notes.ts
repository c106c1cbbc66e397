import type { ChangeSetInput } from '../model/change-set';
import type { Flow, Position } from '../model/flow';
import { NOTE_MIN_SIZE, NOTE_SIZE, type Note } from '../model/notes';
import { sameJson } from '../model/same-json';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import { newItemId } from './ids';
import { freePosition, type ViewBox } from './placement';

/**
 * Edits of a flow's sticky notes. Each carries the whole list as it is after
 * the edit (the change set's `flow.notes`), so undo restores the list before.
 */

export function addNoteChange(flow: Flow, position: Position): { changes: ChangeSetInput; noteId: string } {
  const id = newItemId(new Set(flow.notes.map((n) => n.id)), 'note');
  const note: Note = { id, text: '', position, ...NOTE_SIZE, color: 'yellow' };
  return { changes: { flow: { notes: [...flow.notes, note] } }, noteId: id };
}

/** Where a note added from the palette goes: in view, clear of the cards and the other notes, as a node added would be. */
export function notePlace(flow: Flow, view: ViewBox): Position {
  return freePosition([...flow.nodes, ...flow.notes], undefined, view, NOTE_SIZE);
}

/** Changes one note's fields; undefined when the note is gone (deleted in another window) or nothing changes. */
export function updateNoteChange(
  flow: Flow,
  id: string,
  update: Partial<Omit<Note, 'id'>>,
): ChangeSetInput | undefined {
  const note = flow.notes.find((n) => n.id === id);
  if (!note || Object.entries(update).every(([key, value]) => sameJson(note[key as keyof Note], value)))
    return undefined;
  return { flow: { notes: flow.notes.map((n) => (n.id === id ? { ...n, ...update } : n)) } };
}

/** Moves notes (dragged with the selection); undefined when none moved. */
export function moveNotesChange(
  flow: Flow,
  moves: readonly { id: string; position: Position }[],
): ChangeSetInput | undefined {
  const to = new Map(moves.map((m) => [m.id, m.position]));
  let moved = false;
  const notes = flow.notes.map((note) => {
    const position = to.get(note.id);
    if (!position || sameJson(position, note.position)) return note;
    moved = true;
    return { ...note, position };
  });
  return moved ? { flow: { notes } } : undefined;
}

export function removeNotesChange(flow: Flow, ids: readonly string[]): ChangeSetInput | undefined {
  const removed = new Set(ids);
  const notes = flow.notes.filter((n) => !removed.has(n.id));
  return notes.length < flow.notes.length ? { flow: { notes } } : undefined;
}

/** The least and most of the cards' boxes: their left, top, right and bottom edges. */
function cardsBounds(positions: readonly Position[]): { left: number; top: number; right: number; bottom: number } {
  return {
    left: Math.min(...positions.map((p) => p.x)),
    top: Math.min(...positions.map((p) => p.y)),
    right: Math.max(...positions.map((p) => p.x + NODE_WIDTH)),
    bottom: Math.max(...positions.map((p) => p.y + NODE_HEIGHT)),
  };
}

/**
 * The notes after an auto-layout moved the nodes: a note around some cards
 * (each wholly inside it) goes with them, keeping its margins around them, and
 * grows or shrinks when they spread out or close up, as n8n's tidy-up takes
 * its sticky notes along. A note around no card stays where it is.
 * Undefined when no note changes.
 */
export function notesAfterLayout(flow: Flow, moves: readonly { id: string; position: Position }[]): Note[] | undefined {
  const after = new Map(moves.map((m) => [m.id, m.position]));
  let changed = false;
  const notes = flow.notes.map((note) => {
    const covered = flow.nodes.filter(
      ({ position: p }) =>
        p.x >= note.position.x &&
        p.y >= note.position.y &&
        p.x + NODE_WIDTH <= note.position.x + note.width &&
        p.y + NODE_HEIGHT <= note.position.y + note.height,
    );
    if (covered.length === 0) return note;
    const was = cardsBounds(covered.map((n) => n.position));
    const now = cardsBounds(covered.map((n) => after.get(n.id) ?? n.position));
    const left = was.left - note.position.x;
    const top = was.top - note.position.y;
    const moved: Note = {
      ...note,
      position: { x: now.left - left, y: now.top - top },
      width: Math.max(NOTE_MIN_SIZE.width, now.right - now.left + note.width - (was.right - was.left)),
      height: Math.max(NOTE_MIN_SIZE.height, now.bottom - now.top + note.height - (was.bottom - was.top)),
    };
    if (sameJson(moved, note)) return note;
    changed = true;
    return moved;
  });
  return changed ? notes : undefined;
}
