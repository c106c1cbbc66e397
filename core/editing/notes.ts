import type { ChangeSetInput } from '../model/change-set';
import type { Flow, Position } from '../model/flow';
import { NOTE_SIZE, type Note } from '../model/notes';
import { freeNodeId } from './ids';
import { freePosition, type ViewBox } from './placement';

/**
 * Edits of a flow's sticky notes. Each carries the whole list as it is after
 * the edit (the change set's `flow.notes`), so undo restores the list before.
 */

export function addNoteChange(flow: Flow, position: Position): { changes: ChangeSetInput; noteId: string } {
  const id = freeNodeId(new Set(flow.notes.map((n) => n.id)), 'note');
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
  if (!note || Object.entries(update).every(([key, value]) => same(note[key as keyof Note], value))) return undefined;
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
    if (!position || same(position, note.position)) return note;
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

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
