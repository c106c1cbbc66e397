import type { ChangeSetInput } from '../model/change-set';
import type { Flow, FlowNode } from '../model/flow';
import { NotesSchema, type Note } from '../model/notes';
import type { AnyEditorField, NodeDefinition } from '../nodes/define-node';
import { nodeRegistry } from '../nodes/registry';
import { parseTemplate } from '../model/template';
import { findPattern, locate, textFields, type FindOptions } from './find';
import { matchOf, substitute, withCaseOf, type ReplaceMatch } from './replacement-text';

/** Where Find's words are, as find.ts names a node or note. */
export interface ReplaceTarget {
  kind: 'node' | 'note';
  id: string;
}

export interface ReplaceOptions extends FindOptions {
  /** Only this node or note (Replace, as against Replace all). */
  only?: ReplaceTarget;
  /** Each replacement takes the capitals of the text it replaces (AB): `Ticket` → `Case`, `TICKET` → `CASE`. */
  preserveCase?: boolean;
}

/** A node or note holding the words where a replacement would not go, and why (said to the person). */
export interface LeftAlone extends ReplaceTarget {
  reason: string;
}

export interface Replacement {
  /** The edit, undefined when nothing changes. */
  changes: ChangeSetInput | undefined;
  /** How many times the words were replaced, and in how many nodes and notes. */
  count: number;
  nodes: number;
  notes: number;
  /** Nodes and notes that hold the words only where they stay (see replaceInFlow). */
  leftAlone: LeftAlone[];
}

/** Field kinds a person types words into; choices from a list, numbers, flags and JSON are not replaced in. */
const TEXT_KINDS: ReadonlySet<AnyEditorField['kind']> = new Set(['text', 'textarea', 'template', 'code']);
/** Why words in references stay, as the person is told. */
const REFERENCES_KEPT = '{{references}}, which name ids';
/** The longest label an edit takes (NodeUpdateSchema). */
const MAX_LABEL = 200;

/** What goes in place of one match. */
type Swap = (match: ReplaceMatch) => string;

/** What replacing in one text did: the new text, how many matches it replaced, how many it kept because they touch a reference. */
interface Replaced {
  text: string;
  count: number;
  kept: number;
}

/**
 * Every occurrence of the words (as Find matches them) replaced, except
 * where one touches a `{{…}}` reference (a node's id stays, so the references
 * to it must too): those are counted in `kept`, for the report. The whole
 * text is searched at once, so a regular expression's `^`, `$` and
 * lookarounds see all of it. References are found as templates find them.
 */
function replaceWords(text: string, pattern: RegExp, replacement: Swap): Replaced {
  // Parsed at the first match only: most texts of a big flow hold none.
  let references: { start: number; end: number }[] | undefined;
  const referencesOf = () =>
    (references ??= parseTemplate(text).flatMap((segment) => (segment.kind === 'text' ? [] : [segment])));
  let count = 0;
  let kept = 0;
  // A function, so that `$&` or `$1` in what the person typed are filled in only for a regular expression.
  const next = text.replace(pattern, (...args: unknown[]) => {
    const match = matchOf(args);
    const { text: found, offset } = match;
    // An empty match (`a*` before any `a`) replaces nothing, as Find finds nothing there.
    if (found === '') return found;
    if (referencesOf().some(({ start, end }) => offset < end && offset + found.length > start)) {
      kept++;
      return found;
    }
    count++;
    return replacement(match);
  });
  return { text: next, count, kept };
}

/**
 * Find's words replaced in the text people write: node labels, the text
 * fields of each node's settings (prompts, templates, return values, model
 * names: the inspector's text fields, list items' too) and sticky notes'
 * text. Ids stay (other nodes refer to them; renaming a node is its own edit),
 * and so do the words in `{{…}}` references to them, types, choices from a
 * list, numbers and JSON. A node whose settings would no longer be valid
 * after the replacement is left as it is. All of these are reported in
 * `leftAlone`, so nothing found is skipped without a word. The words match
 * as Find's options say (case, whole words, a regular expression, whose
 * `$1` and the like the replacement may use; one that is not valid throws, as
 * in findPattern). One edit: one undo step.
 */
export function replaceInFlow(
  flow: Flow,
  query: string,
  replacement: string,
  options: ReplaceOptions = {},
): Replacement {
  const none: Replacement = { changes: undefined, count: 0, nodes: 0, notes: 0, leftAlone: [] };
  const pattern = findPattern(query, options);
  if (!pattern) return none;
  const { only } = options;
  const typed: Swap = options.regex ? (match) => substitute(replacement, match) : () => replacement;
  const swap: Swap = options.preserveCase ? (match) => withCaseOf(match.text, typed(match)) : typed;
  const holds = (text: string) => locate(text, pattern) !== undefined;
  const result = { ...none, leftAlone: [] as LeftAlone[] };
  const updateNodes: NonNullable<ChangeSetInput['updateNodes']> = [];

  for (const node of flow.nodes) {
    if (only && (only.kind !== 'node' || only.id !== node.id)) continue;
    const definition = nodeRegistry.get(node.type);
    const replaced = replaceInNode(node, definition, pattern, swap);
    if ('reason' in replaced) {
      result.leftAlone.push({ kind: 'node', id: node.id, reason: replaced.reason });
      continue;
    }
    // Where Find looks and this does not: said, not left to be wondered at.
    const left = [
      node.id,
      definition?.label ?? node.type,
      ...textFields(node.config).flatMap(([path, text]) => (replaced.replaceable.has(path) ? [] : [text])),
    ];
    const where = [
      left.some(holds) ? 'its id, its type or a setting that is not text' : '',
      replaced.kept > 0 ? REFERENCES_KEPT : '',
    ].filter(Boolean);
    if (where.length > 0) {
      const reason = `the words are ${replaced.count === 0 ? 'only' : 'also'} in ${where.join(' and in ')}`;
      result.leftAlone.push({ kind: 'node', id: node.id, reason });
    }
    if (replaced.count === 0) continue;
    updateNodes.push(replaced.update);
    result.count += replaced.count;
    result.nodes++;
  }

  let notes: Note[] | undefined;
  flow.notes.forEach((note, index) => {
    if (only && (only.kind !== 'note' || only.id !== note.id)) return;
    const { text, count, kept } = replaceWords(note.text, pattern, swap);
    if (kept > 0) {
      const reason = `the words are ${count === 0 ? 'only' : 'also'} in ${REFERENCES_KEPT}`;
      result.leftAlone.push({ kind: 'note', id: note.id, reason });
    }
    if (count === 0) return;
    const changed = [...(notes ?? flow.notes)];
    changed[index] = { ...note, text };
    const checked = NotesSchema.safeParse(changed);
    if (!checked.success) {
      result.leftAlone.push({ kind: 'note', id: note.id, reason: checked.error.issues[0]?.message ?? 'invalid note' });
      return;
    }
    notes = changed;
    result.count += count;
    result.notes++;
  });

  if (updateNodes.length === 0 && !notes) return result;
  return {
    ...result,
    changes: { ...(updateNodes.length > 0 ? { updateNodes } : {}), ...(notes ? { flow: { notes } } : {}) },
  };
}

type NodeReplacement =
  | {
      update: { id: string; label?: string; config?: Record<string, unknown> };
      count: number;
      /** Matches kept because they touch a reference. */
      kept: number;
      /** The paths of the config's text fields, which are replaced in (as find.ts names them). */
      replaceable: ReadonlySet<string>;
    }
  | { reason: string };

/** One node's label and text settings with the words replaced, or why it is left as it is. */
function replaceInNode(
  node: FlowNode,
  definition: NodeDefinition | undefined,
  pattern: RegExp,
  replacement: Swap,
): NodeReplacement {
  const update: { id: string; label?: string; config?: Record<string, unknown> } = { id: node.id };
  const replaceable = new Set<string>();
  let count = 0;
  let kept = 0;
  if (node.label) {
    const label = replaceWords(node.label, pattern, replacement);
    kept += label.kept;
    if (label.count > 0) {
      if (label.text.length > MAX_LABEL) return { reason: `its label would be over ${MAX_LABEL} characters` };
      update.label = label.text;
      count += label.count;
    }
  }
  if (definition) {
    let found = 0;
    const config = mapTextFields(node.config, definition.editor, (text, path) => {
      replaceable.add(path);
      const replaced = replaceWords(text, pattern, replacement);
      found += replaced.count;
      kept += replaced.kept;
      return replaced.text;
    });
    if (found > 0) {
      const checked = definition.configSchema.safeParse(config);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        return { reason: `its settings would not be valid: ${issue?.path.join('.') || 'config'}: ${issue?.message}` };
      }
      update.config = config;
      count += found;
    }
  }
  return { update, count, kept, replaceable };
}

/**
 * The config (or a list item) with each of its text fields, list items' too,
 * given by `edit` (with its path, as find.ts names it: `prompt`,
 * `rules.0.value`); the same object when `edit` changes nothing.
 */
function mapTextFields(
  config: Record<string, unknown>,
  fields: readonly AnyEditorField[],
  edit: (text: string, path: string) => string,
  prefix = '',
): Record<string, unknown> {
  let next = config;
  const set = (key: string, value: unknown) => {
    if (next === config) next = { ...config };
    next[key] = value;
  };
  for (const field of fields) {
    const value = config[field.key];
    const path = `${prefix}${field.key}`;
    if (TEXT_KINDS.has(field.kind) && typeof value === 'string') {
      const text = edit(value, path);
      if (text !== value) set(field.key, text);
    } else if (field.kind === 'list' && field.itemFields && Array.isArray(value)) {
      const list: unknown[] = value;
      let items = list;
      list.forEach((item, index) => {
        if (item === null || typeof item !== 'object') return;
        const itemFields = field.itemFields ?? [];
        const mapped = mapTextFields(item as Record<string, unknown>, itemFields, edit, `${path}.${index}.`);
        if (mapped === item) return;
        if (items === list) items = [...list];
        items[index] = mapped;
      });
      if (items !== list) set(field.key, items);
    }
  }
  return next;
}
