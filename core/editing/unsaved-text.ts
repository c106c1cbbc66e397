import { applyChangeSet, ChangeSetSchema, isMoveOnly, type ChangeSet, type ChangeSetInput } from '../model/change-set';
import type { Flow, FlowEdge, FlowNode, Position } from '../model/flow';
import { textFields } from './find';
import { freeNodeId, newItemId } from './ids';
import { mergeText } from '../model/merge-text';
import { updateNoteChange } from './notes';
import { PASTE_OFFSET, renameIn } from './paste';
import { templateReferences } from '../model/template';

/** Where a text goes in a flow: a node's label or a setting (by its path in the config), a note, a flow field. */
export type TextPlace =
  { kind: 'node'; id: string; path: string } | { kind: 'note'; id: string } | { kind: 'flow'; path: string };

/**
 * A node the refused edits added, as the person last had it: put back
 * whole (every setting, where it stood, its connections), not text by text,
 * since the stored flow has no node to put a text in.
 */
export interface AddedNode {
  node: FlowNode;
  /** Its connections in the flow the person saw. */
  edges: FlowEdge[];
  /** The other nodes at their ends that the refused edits added too: an edge to one goes back only with it. */
  alsoAdded: FlowNode[];
}

/** Text a person typed in an edit the host refused, with where it was typed; or a node they added with no text typed in it. */
export interface UnsavedText {
  /** Where, as a person finds it again: `Summarize · prompt`, `sticky note note_2`, `flow settings · description`. */
  where: string;
  /** Empty for a node added with nothing typed in it (its place's path is empty too): there is only the node to put back. */
  text: string;
  place: TextPlace;
  /**
   * The text there before the person's refused edits, as their window last
   * had it stored: what Put back merges their change from (putBackText).
   * Absent where that is not known, or there was no such place.
   */
  base?: string;
  /** Set when the text is in a node the refused edits added (see AddedNode). */
  added?: AddedNode;
}

/** A node's label and the text of its settings, by path. */
const nodeTexts = (node: FlowNode): [string, string][] => [['label', node.label ?? ''], ...textFields(node.config)];

/**
 * The same kind of node holding the same texts at the same place: the one the
 * person added, put back (or stored after all). The place tells it from
 * another window's node of its id when neither holds any text yet.
 */
const sameNode = (a: FlowNode, b: FlowNode): boolean =>
  a.type === b.type &&
  a.position.x === b.position.x &&
  a.position.y === b.position.y &&
  JSON.stringify(nodeTexts(a)) === JSON.stringify(nodeTexts(b));

/**
 * What the person typed in `refused` (edits the host would not store: an
 * EDIT_CONFLICT, a validation refusal) that the flow as stored does not hold,
 * so the editor can show it to be copied back instead of dropping it when it
 * reloads the flow. `mine` is the flow as the editor showed it, the refused
 * edits in it; `stored` is the flow reloaded from the host, undefined when it
 * could not be reloaded (then every text the refused edits touched is
 * listed). Only what the refused edits touched is listed: a text the other
 * window changed is not this person's. `before` is the flow as this window
 * last had it stored, before the refused edits: each text's `base`.
 */
export function unsavedText(
  mine: Flow,
  stored: Flow | undefined,
  refused: readonly ChangeSet[],
  before?: Flow,
): UnsavedText[] {
  const nodeIds = new Set<string>();
  const addedIds = new Set<string>();
  const noteIds = new Set<string>();
  const fields = new Set<string>();
  for (const changes of refused) {
    for (const node of changes.addNodes) {
      nodeIds.add(node.id);
      addedIds.add(node.id);
    }
    for (const update of changes.updateNodes)
      if (update.label !== undefined || update.config !== undefined) nodeIds.add(update.id);
    const { notes, tool, ...own } = changes.flow ?? {};
    const base = new Map((changes.notesBase ?? []).map((note) => [note.id, note.text]));
    for (const note of notes ?? []) if (base.get(note.id) !== note.text) noteIds.add(note.id);
    for (const [key, value] of Object.entries(own)) if (value !== undefined) fields.add(key);
    for (const [key, value] of Object.entries(tool ?? {})) if (value !== undefined) fields.add(`tool.${key}`);
  }

  const found: UnsavedText[] = [];
  /** Each text of `texts` that is not empty and not stored as it is, with what it was before (`baseTexts`). */
  const differing = (
    where: (path: string) => string,
    place: (path: string) => TextPlace,
    texts: [string, string][],
    storedTexts: [string, string][],
    baseTexts: [string, string][] = [],
  ) => {
    const kept = new Map(storedTexts);
    const bases = new Map(baseTexts);
    for (const [path, text] of texts) {
      if (text.trim() === '' || kept.get(path) === text) continue;
      const base = bases.get(path);
      found.push({ where: where(path), text, place: place(path), ...(base !== undefined ? { base } : {}) });
    }
  };

  const storedNodes = new Map(stored?.nodes.map((node) => [node.id, node]));
  const beforeNodes = new Map(before?.nodes.map((node) => [node.id, node]));
  const mineNodes = new Map(mine.nodes.map((node) => [node.id, node]));
  // What each node the refused edits added reads, found once for all of them.
  const reads = new Map(mine.nodes.flatMap((node) => (addedIds.has(node.id) ? [[node.id, readNodes(node)]] : [])));
  const labels = new Map<string, number>();
  for (const node of mine.nodes) if (node.label) labels.set(node.label, (labels.get(node.label) ?? 0) + 1);
  // A label two nodes share names both with their ids, so that each text's place can be told.
  const nameOf = (node: FlowNode) =>
    !node.label ? node.id : (labels.get(node.label) ?? 0) > 1 ? `${node.label} (${node.id})` : node.label;
  for (const node of mine.nodes) {
    if (!nodeIds.has(node.id)) continue;
    // A node this person added: a stored node of its id is another window's (ids are `<type>_<n>`, and
    // both windows took the next one), unless it holds the same texts (the add was stored, its answer lost).
    const added = addedIds.has(node.id) ? addedNode(node, mine, reads, mineNodes) : undefined;
    const kept = storedNodes.get(node.id);
    const gone = added ? ' (added, not saved)' : kept || !stored ? '' : ' (no longer in the flow)';
    const name = `${nameOf(node)}${gone}`;
    const listedBefore = found.length;
    const was = added ? undefined : beforeNodes.get(node.id);
    differing(
      (path) => `${name} · ${path}`,
      (path) => ({ kind: 'node', id: node.id, path }),
      nodeTexts(node),
      kept ? nodeTexts(kept) : [],
      was ? nodeTexts(was) : [],
    );
    if (added) for (const item of found.slice(listedBefore)) item.added = added;
    // Added with nothing typed in it yet (or only what is stored under its id): still the person's node, listed to put back whole.
    if (added && found.length === listedBefore && !(kept && sameNode(kept, node)))
      found.push({ where: name, text: '', place: { kind: 'node', id: node.id, path: '' }, added });
  }
  const storedNotes = new Map(stored?.notes.map((note) => [note.id, note.text]));
  const beforeNotes = new Map(before?.notes.map((note) => [note.id, note.text]));
  for (const note of mine.notes) {
    const kept = storedNotes.get(note.id);
    const was = beforeNotes.get(note.id);
    if (noteIds.has(note.id))
      differing(
        () => `sticky note ${note.id}`,
        () => ({ kind: 'note', id: note.id }),
        [['text', note.text]],
        kept ? [['text', kept]] : [],
        was !== undefined ? [['text', was]] : [],
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
    flowTexts(before),
  );
  return found;
}

/**
 * A node the refused edits added, with its connections in the flow the person
 * saw. `reads` holds what each node they added reads (its keys are those nodes).
 */
function addedNode(
  node: FlowNode,
  mine: Flow,
  reads: ReadonlyMap<string, ReadonlySet<string>>,
  mineNodes: ReadonlyMap<string, FlowNode>,
): AddedNode {
  const edges = mine.edges.filter((edge) => edge.source === node.id || edge.target === node.id);
  const ends = new Set(edges.flatMap((edge) => [edge.source, edge.target]));
  // And the nodes it reads, or that read it, connected yet or not: their references follow it too.
  for (const id of reads.get(node.id) ?? []) ends.add(id);
  for (const [id, read] of reads) if (read.has(node.id)) ends.add(id);
  ends.delete(node.id);
  const alsoAdded = [...ends].flatMap((id) => (reads.has(id) ? [mineNodes.get(id) as FlowNode] : []));
  return { node, edges, alsoAdded };
}

/** The ids of the nodes a node's texts refer to (`{{nodes.<id>.output}}`). */
function readNodes(node: FlowNode): Set<string> {
  const refs = textFields(node.config).flatMap(([, text]) => templateReferences(text));
  return new Set(refs.flatMap((ref) => (ref.scope === 'nodes' ? [ref.nodeId] : [])));
}

/**
 * sameNode, with every node reference read as the same: a node back under
 * its id reads the person's other nodes under the ids they took since.
 */
function sameNodeButReferences(a: FlowNode, b: FlowNode): boolean {
  if (sameNode(a, b)) return true;
  const anyNode = new Map([...readNodes(a), ...readNodes(b)].map((id) => [id, '']));
  const blind = (node: FlowNode): FlowNode => ({
    ...node,
    config: renameIn(node.config, anyNode) as FlowNode['config'],
  });
  return sameNode(blind(a), blind(b));
}

/**
 * Where a node the person added stands in the flow now: under its own id, or
 * under the id it took when it was put back beside another window's node of
 * its id (same type, one paste offset from where the person had it).
 */
function whereNow(flow: Flow, added: FlowNode): string | undefined {
  const own = flow.nodes.find((n) => n.id === added.id);
  if (own && sameNodeButReferences(own, added)) return own.id;
  const x = added.position.x + PASTE_OFFSET;
  const y = added.position.y + PASTE_OFFSET;
  return flow.nodes.find((n) => n.id !== added.id && n.type === added.type && n.position.x === x && n.position.y === y)
    ?.id;
}

/**
 * The edit that adds a node the refused edits added back into the flow, as
 * the person had it, at its place, with its connections to the nodes there
 * (to another node they added only once that one is back); under a free id
 * when the other window's node took its own. References follow the ids the
 * person's nodes took: this node's to one put back under a new id, and those
 * of the person's nodes already back to this one when it takes a new id.
 * Undefined when it is there already (under its id or one it took: whereNow).
 * A new id is none of `reserved`: the ids of nodes the same edit puts back next.
 */
function addBackChange(
  flow: Flow,
  { node, edges, alsoAdded }: AddedNode,
  reserved: ReadonlySet<string> = new Set(),
): ChangeSetInput | undefined {
  if (whereNow(flow, node) !== undefined) return undefined;
  const present = new Map(flow.nodes.map((n) => [n.id, n]));
  const there = present.get(node.id);
  const id = there ? freeNodeId(new Set([...present.keys(), ...reserved]), node.type) : node.id;
  // The person's other added nodes that are back, by the id each had and the one it has now.
  const back = new Map(alsoAdded.flatMap((n) => ((now) => (now ? [[n.id, now] as const] : []))(whereNow(flow, n))));
  const addedToo = new Set(alsoAdded.map((n) => n.id));
  /** The node at the other end of an edge is in the flow, and is the one the person connected (not another window's of its id). */
  const connectable = (end: string): boolean => (addedToo.has(end) ? back.has(end) : present.has(end));
  const follow = (end: string) => (end === node.id ? id : (back.get(end) ?? end));
  const edgeIds = new Set(flow.edges.map((e) => e.id));
  const addEdges = edges.flatMap((edge) => {
    const other = edge.source === node.id ? edge.target : edge.source;
    if (other !== node.id && !connectable(other)) return [];
    const edgeId = edgeIds.has(edge.id) ? newItemId(edgeIds, 'e') : edge.id;
    edgeIds.add(edgeId);
    return [{ ...edge, id: edgeId, source: follow(edge.source), target: follow(edge.target) }];
  });
  const renamed = new Map([...back].filter(([was, now]) => was !== now));
  const config = renameIn(node.config, renamed) as FlowNode['config'];
  // Beside the other window's node, not under it, when it took this one's id.
  const position = there ? { x: node.position.x + PASTE_OFFSET, y: node.position.y + PASTE_OFFSET } : node.position;
  // The person's nodes already back that read this one read it under its new id.
  const toThis = new Map([[node.id, id]]);
  const updateNodes =
    id === node.id
      ? []
      : [...back.values()].flatMap((nowId) => {
          const other = present.get(nowId) as FlowNode;
          const renamedConfig = renameIn(other.config, toThis) as FlowNode['config'];
          return JSON.stringify(renamedConfig) === JSON.stringify(other.config)
            ? []
            : [{ id: nowId, config: renamedConfig }];
        });
  return {
    addNodes: [{ ...node, id, config, position }],
    addEdges,
    ...(updateNodes.length > 0 ? { updateNodes } : {}),
  };
}

/**
 * addBackChange, after the nodes this one reads that the person added too and
 * that are not back, in the same edit (theirs first, each with the nodes it
 * reads): put back alone, this node's references to them would name another
 * window's node of their id, or no node. `listed` is every item the banner
 * lists, where each of those nodes has its connections. A node brought along
 * that needs a new id does not take the id of one put back after it (`seen`):
 * the node the person clicked keeps its own where it can.
 */
function addBackWithSources(
  flow: Flow,
  added: AddedNode,
  listed: readonly UnsavedText[],
  seen = new Set<string>(),
): ChangeSetInput | undefined {
  if (whereNow(flow, added.node) !== undefined) return undefined;
  seen.add(added.node.id);
  const reads = readNodes(added.node);
  let now = flow;
  const parts: ChangeSetInput[] = [];
  for (const source of added.alsoAdded) {
    // A loop of references (a cycle, which the flow refuses anyway) is put back once.
    if (!reads.has(source.id) || seen.has(source.id)) continue;
    const its = listed.find((item) => item.added?.node.id === source.id)?.added;
    const change = its && addBackWithSources(now, its, listed, seen);
    if (!change) continue;
    parts.push(change);
    now = applyChangeSet(now, ChangeSetSchema.parse(change));
  }
  const own = addBackChange(now, added, seen);
  return own && joinChanges([...parts, own]);
}

type NodeUpdateInput = NonNullable<ChangeSetInput['updateNodes']>[number];

/**
 * Put-back edits made one after another, as one edit. Each was made on the
 * flow the ones before it left, so an update of a node one of them added
 * goes into that node, and a later update of a node replaces an earlier one.
 */
function joinChanges(parts: readonly ChangeSetInput[]): ChangeSetInput {
  const addNodes = parts.flatMap((part) => part.addNodes ?? []);
  const updates = new Map<string, NodeUpdateInput>();
  for (const part of parts) for (const update of part.updateNodes ?? []) updates.set(update.id, update);
  const joined = addNodes.map((node) => {
    const update = updates.get(node.id);
    updates.delete(node.id);
    // A put back rewrites nothing but references: a config.
    return update?.config ? { ...node, config: update.config } : node;
  });
  return {
    addNodes: joined,
    addEdges: parts.flatMap((part) => part.addEdges ?? []),
    ...(updates.size > 0 ? { updateNodes: [...updates.values()] } : {}),
  };
}

/** The id the item's node stands under in `flow`: its own or the one it took; undefined when it is not there (or the item adds no node). */
export const backAs = (flow: Flow, item: UnsavedText): string | undefined =>
  item.added && whereNow(flow, item.added.node);

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

/** The text at a place in `flow` now; undefined when the place is gone or holds something other than text. */
function textAt(flow: Flow, place: TextPlace): string | undefined {
  if (place.kind === 'note') return flow.notes.find((note) => note.id === place.id)?.text;
  if (place.kind === 'node') {
    const node = flow.nodes.find((n) => n.id === place.id);
    return node && new Map(nodeTexts(node)).get(place.path);
  }
  const [field = ''] = place.path.split('.');
  return new Map(textFields({ [field]: (flow as unknown as Record<string, unknown>)[field] })).get(place.path);
}

/** What Put back leaves at a text's place (`now`, what is there): see putBackPlan. */
export interface PutBackText {
  text: string;
  /** The person's change was merged into another window's change of the same text. */
  merged: boolean;
  /** Where both changed the same lines, the person's lines replaced the other's: how many such places. */
  replaced: number;
}

/**
 * The text Put back leaves where `item` was typed, given what is there now:
 * the text as typed when nobody else changed it since the person started
 * (or that is not known), else the person's change merged into the other
 * window's, line by line (mergeText).
 */
export function putBackText(now: string, { text, base }: UnsavedText): PutBackText {
  if (base === undefined || now === base || now === text) return { text, merged: false, replaced: 0 };
  const { text: merged, conflicts } = mergeText(base, now, text);
  return { text: merged, merged: true, replaced: conflicts };
}

/** What Put back does for an item: its edit, and for a text what it leaves there (see putBackPlan). */
export interface PutBackPlan {
  changes: ChangeSetInput;
  /** Absent for a node put back whole, and for a text whose place holds none now (a setting emptied elsewhere). */
  text?: PutBackText;
}

/**
 * The edit that puts an unsaved text back where it was typed, merged with
 * what another window stored there since (putBackText: where both changed
 * the same lines, the person's win, having seen the other's text), with
 * what it leaves there, so that the button, its tooltip and the toast need
 * one merge; undefined when that place is gone from the flow, or holds that
 * text already. A text in a node the person added puts the whole node back
 * (addBackChange), after the nodes it reads that they added too
 * (addBackWithSources: `listed` holds them, every item the refusal lists).
 * The node put back for `item` is the last the edit adds.
 */
export function putBackPlan(
  flow: Flow,
  item: UnsavedText,
  listed: readonly UnsavedText[] = [],
): PutBackPlan | undefined {
  if (item.added) {
    const changes = addBackWithSources(flow, item.added, listed);
    return changes && { changes };
  }
  const now = textAt(flow, item.place);
  const text = now === undefined ? undefined : putBackText(now, item);
  if (text && text.text === now) return undefined;
  const changes = textChange(flow, item.place, text?.text ?? item.text);
  return changes && { changes, ...(text ? { text } : {}) };
}

/** putBackPlan's edit alone. */
export const putBackChange = (
  flow: Flow,
  item: UnsavedText,
  listed: readonly UnsavedText[] = [],
): ChangeSetInput | undefined => putBackPlan(flow, item, listed)?.changes;

/** The edit that sets the text at `place`; undefined when the place is gone or holds something other than text. */
function textChange(flow: Flow, place: TextPlace, text: string): ChangeSetInput | undefined {
  if (place.kind === 'note') return updateNoteChange(flow, place.id, { text });
  if (place.kind === 'node') {
    const node = flow.nodes.find((n) => n.id === place.id);
    if (!node) return undefined;
    if (place.path === 'label') return { updateNodes: [{ id: node.id, label: text }] };
    const config = withTextAt(node.config, place.path.split('.'), text) as FlowNode['config'] | undefined;
    return config ? { updateNodes: [{ id: node.id, config }] } : undefined;
  }
  const [field = '', ...rest] = place.path.split('.');
  const value = withTextAt((flow as unknown as Record<string, unknown>)[field], rest, text);
  if (value === undefined) return undefined;
  // A tool setting is sent alone: the others stay as they are (ToolSettingsUpdateSchema).
  const fields = field === 'tool' && rest.length === 1 ? { tool: { [rest[0] as string]: text } } : { [field]: value };
  return { flow: fields };
}

/**
 * True when refused edits did nothing but add nodes and change what they
 * added (settings, places, connections, or removed it again): then putting
 * those nodes back puts back all of the edits, and nothing else of them is
 * lost when it is done for the person (putBackAllAdded).
 */
export function onlyAddedNodes(refused: readonly ChangeSet[]): boolean {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  for (const changes of refused) {
    if (changes.flow || changes.notesBase || changes.fieldsBase) return false;
    for (const node of changes.addNodes) nodes.add(node.id);
    for (const edge of changes.addEdges) {
      if (!nodes.has(edge.source) && !nodes.has(edge.target)) return false;
      edges.add(edge.id);
    }
    if (changes.updateNodes.some((update) => !nodes.has(update.id))) return false;
    if (changes.removeNodes.some((id) => !nodes.has(id))) return false;
    if (changes.removeEdges.some((id) => !edges.has(id))) return false;
  }
  return nodes.size > 0;
}

const NODE_AND_EDGE_CHANGES = ['addNodes', 'updateNodes', 'removeNodes', 'addEdges', 'removeEdges'] as const;

/** True when `changes` changes nothing but its `kind` of nodes or connections (not the flow's fields or notes either). */
const changesOnly = (changes: ChangeSet, kind: (typeof NODE_AND_EDGE_CHANGES)[number]): boolean =>
  !changes.flow && NODE_AND_EDGE_CHANGES.every((other) => other === kind || changes[other].length === 0);

/**
 * True when refused edits did nothing but connect ports that the flow as
 * stored now joins already (another window made the same connection at
 * once): nothing of them is missing, so nothing needs putting back.
 */
export function onlyJoinsThereNow(refused: readonly ChangeSet[], stored: Flow): boolean {
  const ends = (edge: Flow['edges'][number]) => `${edge.source}.${edge.sourcePort}>${edge.target}.${edge.targetPort}`;
  const joined = new Set(stored.edges.map(ends));
  const added = refused.flatMap((changes) => changes.addEdges);
  const onlyEdges = refused.every((changes) => changesOnly(changes, 'addEdges'));
  return onlyEdges && added.length > 0 && added.every((edge) => joined.has(ends(edge)));
}

/**
 * When refused edits did nothing but move cards, and some of those cards
 * are gone from the flow as stored now (removed in another window while
 * this one moved them): the ids gone, and where the cards still there were
 * put, to move them there again. Undefined otherwise.
 */
export function movesOfRemoved(
  refused: readonly ChangeSet[],
  stored: Flow,
): { gone: string[]; moves: { id: string; position: Position }[] } | undefined {
  const onlyMoves = refused.every(
    (changes) => changesOnly(changes, 'updateNodes') && changes.updateNodes.every(isMoveOnly),
  );
  if (!onlyMoves) return undefined;
  const at = new Map<string, Position>();
  for (const update of refused.flatMap((changes) => changes.updateNodes)) {
    if (update.position) at.set(update.id, update.position);
  }
  const present = new Set(stored.nodes.map((node) => node.id));
  const gone = [...at.keys()].filter((id) => !present.has(id));
  if (gone.length === 0) return undefined;
  const moves = [...at].filter(([id]) => present.has(id)).map(([id, position]) => ({ id, position }));
  return { gone, moves };
}

/**
 * Every node listed as added put back (as Put back puts each), each on the
 * flow the ones before it left, as one edit; with the id each node had and
 * the one it stands under now. A node whose id another window's node took
 * takes one that none of the person's other nodes needs: each of those
 * keeps its own. Undefined when none can be put back.
 */
export function putBackAllAdded(
  flow: Flow,
  listed: readonly UnsavedText[],
): { changes: ChangeSetInput; ids: Map<string, string> } | undefined {
  const taken = new Set(flow.nodes.map((node) => node.id));
  const keepTheirs = listed.flatMap((item) =>
    item.added && !taken.has(item.added.node.id) ? [item.added.node.id] : [],
  );
  let now = flow;
  const parts: ChangeSetInput[] = [];
  for (const item of listed) {
    if (!item.added || backAs(now, item) !== undefined) continue;
    // Nodes it reads are put back in their turn; those already back are read under the ids they took.
    const change = addBackWithSources(now, item.added, listed, new Set(keepTheirs));
    if (!change) continue;
    parts.push(change);
    now = applyChangeSet(now, ChangeSetSchema.parse(change));
  }
  if (parts.length === 0) return undefined;
  const ids = new Map<string, string>();
  for (const item of listed) {
    const id = backAs(now, item);
    if (item.added && id !== undefined) ids.set(item.added.node.id, id);
  }
  return { changes: joinChanges(parts), ids };
}
