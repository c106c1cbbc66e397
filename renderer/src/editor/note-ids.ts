/**
 * A note is a node of its own type on the canvas, under an id no flow node can
 * have (node ids have no colon): the selection holds both kinds, and the
 * editor tells them apart by this prefix.
 */
const PREFIX = 'note:';

export const noteRfId = (noteId: string): string => `${PREFIX}${noteId}`;

/** The note's own id, or undefined for a flow node's id. */
export const noteIdOf = (rfId: string): string | undefined =>
  rfId.startsWith(PREFIX) ? rfId.slice(PREFIX.length) : undefined;

/** Splits canvas ids into flow nodes' ids and notes' ids. */
export function splitNoteIds(rfIds: readonly string[]): { nodeIds: string[]; noteIds: string[] } {
  const nodeIds: string[] = [];
  const noteIds: string[] = [];
  for (const id of rfIds) {
    const noteId = noteIdOf(id);
    if (noteId === undefined) nodeIds.push(id);
    else noteIds.push(noteId);
  }
  return { nodeIds, noteIds };
}
