import type { ChangeSet } from '../model/change-set';
import type { Flow, FlowNode } from '../model/flow';
import { textFields } from './find';

/** Text a person typed in an edit the host refused, with where it was typed. */
export interface UnsavedText {
  /** Where, as a person finds it again: `Summarize · prompt`, `sticky note note_2`, `flow settings · description`. */
  where: string;
  text: string;
}

/** A node's label and the text of its settings, by path. */
const nodeTexts = (node: FlowNode): [string, string][] => [['label', node.label ?? ''], ...textFields(node.config)];

/**
 * What the person typed in `refused` (edits the host would not store: an
 * EDIT_CONFLICT, a validation refusal) that the flow as stored does not hold,
 * so the editor can show it to be copied back instead of dropping it when it
 * reloads the flow. `mine` is the flow as the editor showed it, the refused
 * edits in it; `stored` is the flow reloaded from the host. Only what the
 * refused edits touched is listed: a text the other window changed is not
 * this person's.
 */
export function unsavedText(mine: Flow, stored: Flow, refused: readonly ChangeSet[]): UnsavedText[] {
  const nodeIds = new Set<string>();
  const noteIds = new Set<string>();
  const fields = new Set<string>();
  for (const changes of refused) {
    for (const node of changes.addNodes) nodeIds.add(node.id);
    for (const update of changes.updateNodes)
      if (update.label !== undefined || update.config !== undefined) nodeIds.add(update.id);
    const { notes, tool, ...own } = changes.flow ?? {};
    const base = new Map((changes.notesBase ?? []).map((note) => [note.id, note.text]));
    for (const note of notes ?? []) if (base.get(note.id) !== note.text) noteIds.add(note.id);
    for (const [key, value] of Object.entries(own)) if (value !== undefined) fields.add(key);
    for (const [key, value] of Object.entries(tool ?? {})) if (value !== undefined) fields.add(`tool.${key}`);
  }

  const found: UnsavedText[] = [];
  /** Each text of `texts` that is not empty and not stored as it is. */
  const differing = (where: (path: string) => string, texts: [string, string][], storedTexts: [string, string][]) => {
    const kept = new Map(storedTexts);
    for (const [path, text] of texts)
      if (text.trim() !== '' && kept.get(path) !== text) found.push({ where: where(path), text });
  };

  const storedNodes = new Map(stored.nodes.map((node) => [node.id, node]));
  for (const node of mine.nodes) {
    if (!nodeIds.has(node.id)) continue;
    const kept = storedNodes.get(node.id);
    const name = `${node.label || node.id}${kept ? '' : ' (a node not saved)'}`;
    differing((path) => `${name} · ${path}`, nodeTexts(node), kept ? nodeTexts(kept) : []);
  }
  const storedNotes = new Map(stored.notes.map((note) => [note.id, note.text]));
  for (const note of mine.notes) {
    const kept = storedNotes.get(note.id);
    if (noteIds.has(note.id))
      differing(() => `sticky note ${note.id}`, [['text', note.text]], kept ? [['text', kept]] : []);
  }
  const flowTexts = (flow: Flow) => {
    const own = flow as unknown as Record<string, unknown>;
    return [...fields].flatMap((field) => {
      const [key, inner] = field.split('.') as [string, string | undefined];
      const value = inner === undefined ? own[key] : (own[key] as Record<string, unknown> | undefined)?.[inner];
      return typeof value === 'string' ? ([[field, value]] as [string, string][]) : textFields(value, field);
    });
  };
  differing((path) => `flow settings · ${path}`, flowTexts(mine), flowTexts(stored));
  return found;
}
