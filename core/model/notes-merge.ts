import { FlowbenchError } from './errors';
import { mergeLines } from './merge-text';
import type { Note } from './notes';
import { sameData, withChangedKeys } from './same-json';

/**
 * The sticky notes after an edit made by one window while another may have
 * saved its own: a three-way merge, note by note, of the list the edit
 * started from (`base`), the list stored now (`stored`) and the list the
 * edit made (`ours`). A note only one side changed (added, edited, moved,
 * removed) takes that side's version, so two windows editing different notes
 * of a flow both keep their text. A note both changed is merged field by
 * field: one window moves, resizes or colours it while the other writes in
 * it, and both are kept; where both moved it (or sized or coloured it), this
 * edit's wins, as the later move of a node does. A text both changed merges
 * line by line, as git merges (mergeLines). A note whose text both changed
 * in the same or neighbouring lines, or that one changed and the other
 * removed, is an EDIT_CONFLICT naming it, as a node changed in two places
 * is: nothing typed is overwritten in silence. The
 * order is the stored one, then notes added by this edit, in its order.
 */
export function mergeNotes(base: readonly Note[], stored: readonly Note[], ours: readonly Note[]): Note[] {
  const byId = (notes: readonly Note[]) => new Map(notes.map((note) => [note.id, note]));
  const [before, theirs, mine] = [byId(base), byId(stored), byId(ours)];
  const pick = (id: string): Note | undefined => {
    const [b, t, o] = [before.get(id), theirs.get(id), mine.get(id)];
    if (sameData(o, b)) return t;
    if (sameData(t, b) || sameData(t, o)) return o;
    const text = b && t && o ? mergedText(b.text, t.text, o.text) : undefined;
    if (b && t && o && text !== undefined) return { ...mergeFields(b, t, o), text };
    throw new FlowbenchError(
      'EDIT_CONFLICT',
      `sticky note "${id}" was changed elsewhere since this edit began; reload to see it`,
      { noteId: id },
    );
  };
  const ids = [...new Set([...stored.map((n) => n.id), ...ours.map((n) => n.id)])];
  return ids.flatMap((id) => pick(id) ?? []);
}

/** The note's text after both sides' changes, when they merge: undefined where both changed the same lines. */
function mergedText(base: string, theirs: string, ours: string): string | undefined {
  if (theirs === base || theirs === ours) return ours;
  if (ours === base) return theirs;
  return mergeLines(base, theirs, ours);
}

/**
 * A note both sides changed: theirs, with every field this edit changed
 * taken from it (its text then set by mergedText).
 */
const mergeFields = (base: Note, theirs: Note, ours: Note): Note => withChangedKeys(theirs, base, ours);
