import type { ChangeSet, ChangeSetInput } from '../model/change-set';
import type { Flow, FlowNode } from '../model/flow';
import { textFields } from './find';
import { updateNoteChange } from './notes';

/** Where a text goes in a flow: a node's label or a setting (by its path in the config), a note, a flow field. */
export type TextPlace =
  { kind: 'node'; id: string; path: string } | { kind: 'note'; id: string } | { kind: 'flow'; path: string };

/** Text a person typed in an edit the host refused, with where it was typed. */
export interface UnsavedText {
  /** Where, as a person finds it again: `Summarize · prompt`, `sticky note note_2`, `flow settings · description`. */
  where: string;
  text: string;
  place: TextPlace;
}

/** A node's label and the text of its settings, by path. */
const nodeTexts = (node: FlowNode): [string, string][] => [['label', node.label ?? ''], ...textFields(node.config)];

/**
 * What the person typed in `refused` (edits the host would not store: an
 * EDIT_CONFLICT, a validation refusal) that the flow as stored does not hold,
 * so the editor can show it to be copied back instead of dropping it when it
 * reloads the flow. `mine` is the flow as the editor showed it, the refused
 * edits in it; `stored` is the flow reloaded from the host, undefined when it
 * could not be reloaded (then every text the refused edits touched is
 * listed). Only what the refused edits touched is listed: a text the other
 * window changed is not this person's.
 */
export function unsavedText(mine: Flow, stored: Flow | undefined, refused: readonly ChangeSet[]): UnsavedText[] {
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
  const differing = (
    where: (path: string) => string,
    place: (path: string) => TextPlace,
    texts: [string, string][],
    storedTexts: [string, string][],
  ) => {
    const kept = new Map(storedTexts);
    for (const [path, text] of texts)
      if (text.trim() !== '' && kept.get(path) !== text) found.push({ where: where(path), text, place: place(path) });
  };

  const storedNodes = new Map(stored?.nodes.map((node) => [node.id, node]));
  for (const node of mine.nodes) {
    if (!nodeIds.has(node.id)) continue;
    const kept = storedNodes.get(node.id);
    const name = `${node.label || node.id}${kept || !stored ? '' : ' (no longer in the flow)'}`;
    differing(
      (path) => `${name} · ${path}`,
      (path) => ({ kind: 'node', id: node.id, path }),
      nodeTexts(node),
      kept ? nodeTexts(kept) : [],
    );
  }
  const storedNotes = new Map(stored?.notes.map((note) => [note.id, note.text]));
  for (const note of mine.notes) {
    const kept = storedNotes.get(note.id);
    if (noteIds.has(note.id))
      differing(
        () => `sticky note ${note.id}`,
        () => ({ kind: 'note', id: note.id }),
        [['text', note.text]],
        kept ? [['text', kept]] : [],
      );
  }
  const flowTexts = (flow: Flow | undefined) => {
    if (!flow) return [];
    const own = flow as unknown as Record<string, unknown>;
    return [...fields].flatMap((field) => {
      const [key, inner] = field.split('.') as [string, string | undefined];
      const value = inner === undefined ? own[key] : (own[key] as Record<string, unknown> | undefined)?.[inner];
      return typeof value === 'string' ? ([[field, value]] as [string, string][]) : textFields(value, field);
    });
  };
  differing(
    (path) => `flow settings · ${path}`,
    (path) => ({ kind: 'flow', path }),
    flowTexts(mine),
    flowTexts(stored),
  );
  return found;
}

/**
 * `value` with `text` at `keys` (object keys, array indexes), copied along
 * the way; undefined when the place is gone (a list the other window made
 * shorter, a setting that is no longer an object) or holds something other
 * than text.
 */
function withTextAt(value: unknown, keys: readonly string[], text: string): unknown {
  if (keys.length === 0) return value === undefined || typeof value === 'string' ? text : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const [key = '', ...rest] = keys;
  if (Array.isArray(value)) {
    const list = value as unknown[];
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= list.length) return undefined;
    const inner = withTextAt(list[index], rest, text);
    return inner === undefined ? undefined : list.map((item, i) => (i === index ? inner : item));
  }
  const inner = withTextAt((value as Record<string, unknown>)[key], rest, text);
  return inner === undefined ? undefined : { ...value, [key]: inner };
}

/**
 * The edit that puts an unsaved text back where it was typed, over what the
 * flow now holds there (the person chose theirs, having seen the conflict);
 * undefined when that place is gone from the flow, or holds that text already.
 */
export function putBackChange(flow: Flow, { place, text }: UnsavedText): ChangeSetInput | undefined {
  if (place.kind === 'note') return updateNoteChange(flow, place.id, { text });
  if (place.kind === 'node') {
    const node = flow.nodes.find((n) => n.id === place.id);
    if (!node || new Map(nodeTexts(node)).get(place.path) === text) return undefined;
    if (place.path === 'label') return { updateNodes: [{ id: node.id, label: text }] };
    const config = withTextAt(node.config, place.path.split('.'), text) as FlowNode['config'] | undefined;
    return config ? { updateNodes: [{ id: node.id, config }] } : undefined;
  }
  const [field = '', ...rest] = place.path.split('.');
  const current = (flow as unknown as Record<string, unknown>)[field];
  const value = withTextAt(current, rest, text);
  if (value === undefined || new Map(textFields({ [field]: current })).get(place.path) === text) return undefined;
  // A tool setting is sent alone: the others stay as they are (ToolSettingsUpdateSchema).
  const fields = field === 'tool' && rest.length === 1 ? { tool: { [rest[0] as string]: text } } : { [field]: value };
  return { flow: fields };
}
