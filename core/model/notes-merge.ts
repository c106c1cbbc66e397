import { FlowbenchError } from './errors';
import type { Note } from './notes';
import { sameData } from './same-json';

/**
 * The sticky notes after an edit made by one window while another may have
 * saved its own: a three-way merge, note by note, of the list the edit
 * started from (`base`), the list stored now (`stored`) and the list the
 * edit made (`ours`). A note only one side changed (added, edited, moved,
 * removed) takes that side's version, so two windows editing different notes
 * of a flow both keep their text. A note both changed differently is an
 * EDIT_CONFLICT naming it, as a node changed in two places is: nothing typed
 * is overwritten in silence. The order is the stored one, then notes added
 * by this edit, in its order.
 */
export function mergeNotes(base: readonly Note[], stored: readonly Note[], ours: readonly Note[]): Note[] {
  const byId = (notes: readonly Note[]) => new Map(notes.map((note) => [note.id, note]));
  const [before, theirs, mine] = [byId(base), byId(stored), byId(ours)];
  const pick = (id: string): Note | undefined => {
    const [b, t, o] = [before.get(id), theirs.get(id), mine.get(id)];
    if (sameData(o, b)) return t;
    if (sameData(t, b) || sameData(t, o)) return o;
    throw new FlowbenchError(
      'EDIT_CONFLICT',
      `sticky note "${id}" was changed elsewhere since this edit began; reload to see it`,
      { noteId: id },
    );
  };
  const ids = [...new Set([...stored.map((n) => n.id), ...ours.map((n) => n.id)])];
  return ids.flatMap((id) => pick(id) ?? []);
}
