import { z } from 'zod';
import {
  FlowEdgeSchema,
  FlowNodeForEachSchema,
  FlowNodeSchema,
  NODE_ERROR_POLICIES,
  PositionSchema,
  TEXT_LIMITS,
  ToolSettingsSchema,
  type Flow,
  type FlowNode,
} from './flow';
import { MemorySettingsSchema } from './memory';
import { NotesSchema } from './notes';
import { ParameterSchema } from './parameter';
import { TestCaseSchema } from './test-cases';
import type { Problem } from './problems';

/**
 * A change to one node; absent fields stay as they are. A field it does not
 * know is refused, here and in every part of a change set: dropped, a typo
 * (`lable`) would be an edit that changes nothing and answers ok.
 */
const nodeSettings = () => ({
  label: z.string().max(TEXT_LIMITS.nodeLabel).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  version: z.number().int().min(1).optional(),
  maxAttempts: z.number().int().min(1).max(10).nullable().optional(),
  timeoutMs: z.number().int().min(1).max(3_600_000).nullable().optional(),
  /** What the node's failure does to the run (FlowNode.onError); null goes back to the default. */
  onError: z.enum(NODE_ERROR_POLICIES).nullable().optional(),
  /** Deactivated (FlowNode.disabled); null: it runs again. */
  disabled: z.literal(true).nullable().optional(),
  /** A pinned output (FlowNode.pin); null: the node runs again. */
  pin: z.object({ output: z.json() }).nullable().optional(),
  /** Runs for each item of a list (FlowNode.forEach); null: it runs once. */
  forEach: FlowNodeForEachSchema.nullable().optional(),
});

export const NodeUpdateSchema = z.lazy(() =>
  z.strictObject({
    id: z.string().min(1),
    /**
     * The revision the editor last saw; a mismatch is an EDIT_CONFLICT, not a
     * silent overwrite, for each setting sent without its base.
     */
    rev: z.number().int().min(1).optional(),
    position: PositionSchema.optional(),
    ...nodeSettings(),
    /**
     * The values the settings this update sets had when the edit began. The
     * update is then merged with what another window saved meanwhile, setting
     * by setting and config key by config key (node-merge.ts), instead of
     * refused whole or written over it. Without it (an API client that sends
     * none) the revision decides, as before.
     */
    base: z.strictObject(nodeSettings()).optional(),
  }),
);

/** Changes to the flow's own fields; absent fields stay as they are. */
/**
 * The tool settings an edit changes, each optional and without a default.
 * Not `ToolSettingsSchema.partial()`: zod 4 applies a field's default inside
 * a partial, so an edit of the description came with `enabled: true`,
 * `whenToUse: ''` and no annotations, and wiped them (and offered a tool
 * someone had switched off). A test checks that every setting is here.
 */
export const ToolSettingsUpdateSchema = z.lazy(() => {
  const { shape } = ToolSettingsSchema.unwrap();
  return z.strictObject({
    name: shape.name.optional(),
    description: shape.description.unwrap().optional(),
    whenToUse: shape.whenToUse.unwrap().optional(),
    whenNotToUse: shape.whenNotToUse.unwrap().optional(),
    enabled: shape.enabled.unwrap().optional(),
    annotations: shape.annotations.unwrap().optional(),
    icon: shape.icon,
  });
});

export const FlowFieldsUpdateSchema = z.lazy(() =>
  z.strictObject({
    name: z.string().trim().min(1, 'a flow needs a name').max(TEXT_LIMITS.flowName).optional(),
    description: z.string().max(TEXT_LIMITS.flowDescription).optional(),
    tool: ToolSettingsUpdateSchema.optional(),
    parameters: z.array(ParameterSchema).optional(),
    metadata: z.record(z.string(), z.json()).optional(),
    tests: z.array(TestCaseSchema).max(500).optional(),
    testsGatePublish: z.boolean().optional(),
    memory: MemorySettingsSchema.optional(),
    /** The whole list of sticky notes, as it is after the edit. */
    notes: NotesSchema.optional(),
  }),
);

export type FlowFieldsUpdate = z.infer<typeof FlowFieldsUpdateSchema>;

/**
 * One edit from the editor or the API, applied in one transaction: all of it
 * or none of it. Removals run first, then additions, then updates.
 */
export const ChangeSetSchema = z.lazy(() =>
  z.strictObject({
    flow: FlowFieldsUpdateSchema.optional(),
    removeEdges: z.array(z.string().min(1)).default([]),
    removeNodes: z.array(z.string().min(1)).default([]),
    addNodes: z.array(z.lazy(() => FlowNodeSchema.unwrap().strict())).default([]),
    updateNodes: z.array(NodeUpdateSchema).default([]),
    addEdges: z.array(z.lazy(() => FlowEdgeSchema.unwrap().strict())).default([]),
    /**
     * With `flow.notes`: the notes the edit started from. The notes stored
     * meanwhile by another window are then merged with this edit's note by
     * note (notes-merge.ts) instead of replaced by its list. Without
     * it (an API client that sends none) the list is stored as sent.
     */
    notesBase: NotesSchema.optional(),
    /**
     * With `flow`: the values its fields (and the tool's settings) had when
     * the edit began. A field another window changed meanwhile is then
     * merged line by line when it is a text of several lines both changed in
     * different lines, else an EDIT_CONFLICT instead of overwritten
     * (flow-fields-merge.ts). Without
     * it the fields are stored as sent.
     */
    fieldsBase: FlowFieldsUpdateSchema.optional(),
    /**
     * The revision the editor last saw of each node it removes. A node
     * another window changed since (a prompt written, a setting changed) is
     * then an EDIT_CONFLICT instead of removed with that change unseen, as
     * an update of it would be. A node only moved meanwhile keeps its
     * revision (isMoveOnly), so it is removed. Without it the nodes are removed.
     */
    removeRevs: z.record(z.string(), z.number().int().min(1)).optional(),
  }),
);

export type NodeUpdate = z.infer<typeof NodeUpdateSchema>;
export type ChangeSet = z.infer<typeof ChangeSetSchema>;
export type ChangeSetInput = z.input<typeof ChangeSetSchema>;

export interface ChangeResult {
  /** Rows inserted, updated or deleted, as SQLite counted them. */
  rowsWritten: number;
  /** The new revision of every node the change added or updated, but for nodes it only moved (isMoveOnly: their revision stays). */
  nodeRevs: Record<string, number>;
  /**
   * The nodes as stored after the edit, for each update merged with a change
   * another window had saved since the editor read the node (NodeUpdate.base):
   * what the editor shows of them is brought up to date from these.
   */
  merged?: FlowNode[];
  /**
   * The flow's fields (and notes) as stored after the edit, for those it set
   * that were merged with another window's change (`fieldsBase`,
   * `notesBase`): a description written in other lines there, a note added
   * there. The editor shows these and says so, as for `merged` nodes.
   */
  mergedFlow?: FlowFieldsUpdate;
}

/**
 * Problem codes a draft may carry while it is being edited; the rest are
 * refused. A node being set up is one of them: an MCP tool node names its
 * tool, and a flow node its flow, after it is added (both were refused as the
 * palette added them, so neither could be added at all); an ask node's enum
 * answer gets its options after its type is chosen; a pattern is invalid
 * halfway through typing `(a|b)` (each such edit was refused and the flow
 * reloaded under the person's hands). Runs and publishing still refuse them.
 */
export const DRAFT_TOLERATED_PROBLEMS = new Set([
  'UNRESOLVED_REFERENCE',
  'IMPORT_PROBLEM',
  'UNRESOLVED_AGENT',
  'MISSING_OUTPUT',
  'MULTIPLE_INPUTS',
  'MISSING_TOOL',
  'MISSING_FLOW',
  'NODE_SETUP',
  // {{item}} typed before Run for each is ticked, or the list not named yet.
  'FOR_EACH',
]);

/** The problems that keep a change (or a draft) from being saved: errors a draft may not keep. */
export function blockingProblems<P extends Problem>(problems: readonly P[]): P[] {
  return problems.filter((p) => p.severity === 'error' && !DRAFT_TOLERATED_PROBLEMS.has(p.code));
}

/** An edit removes the tool's icon by setting it to ''; the flow then has none. */
function withoutEmptyIcon(tool: Flow['tool']): Flow['tool'] {
  if (tool.icon !== '') return tool;
  const rest = { ...tool };
  delete rest.icon;
  return rest;
}

/**
 * Applies a change set to a flow in memory. The store applies the same change
 * to rows; the editor uses this to show an edit before the host confirms it.
 * Removing something already gone is not an error (two windows may both delete it).
 */
export function applyChangeSet(flow: Flow, changes: ChangeSet): Flow {
  const removedNodes = new Set(changes.removeNodes);
  const removedEdges = new Set(changes.removeEdges);
  const updates = new Map(changes.updateNodes.map((u) => [u.id, u]));
  // The flow's own fields by name, as FlowFieldsUpdateSchema lists them; the tool's settings one by one.
  const { tool, ...own } = changes.flow ?? {};
  const nodes = flow.nodes
    .filter((n) => !removedNodes.has(n.id))
    .concat(changes.addNodes)
    .map((node) => {
      const update = updates.get(node.id);
      return update ? applyNodeUpdate(node, update) : node;
    });
  const edges = flow.edges
    .filter((e) => !removedEdges.has(e.id) && !removedNodes.has(e.source) && !removedNodes.has(e.target))
    .concat(changes.addEdges);
  return {
    ...flow,
    ...stripUndefined(own),
    tool: withoutEmptyIcon({ ...flow.tool, ...stripUndefined(tool ?? {}) }),
    nodes,
    edges,
  };
}

export function applyNodeUpdate(node: FlowNode, update: NodeUpdate): FlowNode {
  const next: FlowNode = { ...node };
  if (update.label !== undefined) next.label = update.label;
  if (update.position !== undefined) next.position = update.position;
  if (update.config !== undefined) next.config = update.config;
  if (update.version !== undefined) next.version = update.version;
  if (update.maxAttempts !== undefined) setOptional(next, 'maxAttempts', update.maxAttempts);
  if (update.timeoutMs !== undefined) setOptional(next, 'timeoutMs', update.timeoutMs);
  if (update.onError !== undefined) setOptional(next, 'onError', update.onError);
  if (update.disabled !== undefined) setOptional(next, 'disabled', update.disabled);
  if (update.pin !== undefined) setOptional(next, 'pin', update.pin);
  if (update.forEach !== undefined) setOptional(next, 'forEach', update.forEach);
  return next;
}

function setOptional<K extends 'maxAttempts' | 'timeoutMs' | 'onError' | 'disabled' | 'pin' | 'forEach'>(
  node: FlowNode,
  key: K,
  value: FlowNode[K] | null,
): void {
  if (value === null) delete node[key];
  else node[key] = value;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * An update that only moves its node: where a card stands is not what it
 * does, so a move neither needs nor changes the node's revision (a Layout in
 * one window would otherwise make every edit of a node in another a
 * conflict), and two windows' moves of one node leave it where the last put it.
 */
export const isMoveOnly = (update: NodeUpdate): boolean =>
  update.position !== undefined && update.label === undefined && !changesSettings(update);

/**
 * The update changes what the node does: its config or another setting,
 * anything but its label and place. One list for isMoveOnly and isLayoutOnly:
 * a setting added to NodeUpdateSchema and missed here would let a move skip
 * the revision check for a real edit.
 */
const changesSettings = (update: NodeUpdate): boolean =>
  update.config !== undefined ||
  update.version !== undefined ||
  update.maxAttempts !== undefined ||
  update.timeoutMs !== undefined ||
  update.onError !== undefined ||
  update.disabled !== undefined ||
  update.pin !== undefined ||
  update.forEach !== undefined;

/**
 * True when the change only moves or renames nodes or edits sticky notes, which
 * needs no graph validation: the change set's own schema checks the notes, and
 * nothing a run or a client sees depends on them.
 */
export function isLayoutOnly(changes: ChangeSet): boolean {
  return (
    (changes.flow === undefined || Object.keys(stripUndefined(changes.flow)).every((key) => key === 'notes')) &&
    changes.addNodes.length === 0 &&
    changes.removeNodes.length === 0 &&
    changes.addEdges.length === 0 &&
    changes.removeEdges.length === 0 &&
    changes.updateNodes.every((u) => !changesSettings(u))
  );
}

/**
 * The change that undoes `changes` when applied to the flow that results from
 * it. `before` is the flow as it was before `changes`. Undo and redo are pairs
 * of change sets, saved like any other edit.
 */
export function invertChangeSet(before: Flow, changes: ChangeSet): ChangeSet {
  const nodesById = new Map(before.nodes.map((n) => [n.id, n]));
  const removedNodes = new Set(changes.removeNodes);
  const removedEdges = before.edges.filter(
    (e) => changes.removeEdges.includes(e.id) || removedNodes.has(e.source) || removedNodes.has(e.target),
  );
  const restoredNodes = before.nodes.filter((n) => removedNodes.has(n.id));
  const updateBack = changes.updateNodes.flatMap((update) => {
    const old = nodesById.get(update.id);
    if (!old) return [];
    const back: NodeUpdate = { id: update.id };
    if (update.label !== undefined) back.label = old.label;
    if (update.position !== undefined) back.position = old.position;
    if (update.config !== undefined) back.config = old.config;
    if (update.version !== undefined) back.version = old.version;
    if (update.maxAttempts !== undefined) back.maxAttempts = old.maxAttempts ?? null;
    if (update.timeoutMs !== undefined) back.timeoutMs = old.timeoutMs ?? null;
    if (update.onError !== undefined) back.onError = old.onError ?? null;
    if (update.disabled !== undefined) back.disabled = old.disabled ?? null;
    if (update.pin !== undefined) back.pin = old.pin ?? null;
    if (update.forEach !== undefined) back.forEach = old.forEach ?? null;
    return [back];
  });
  const fields = changes.flow;
  // Every field the edit set goes back to what it was; a field added to FlowFieldsUpdateSchema is undone with no code here.
  const flowBack = fields
    ? (Object.fromEntries(
        Object.entries(fields)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [
            key,
            key === 'tool' ? toolSettingsAsIn(before, Object.keys(value as object)) : before[key as keyof Flow],
          ]),
      ) as ChangeSet['flow'])
    : undefined;
  return {
    ...(flowBack ? { flow: flowBack } : {}),
    removeEdges: changes.addEdges.map((e) => e.id),
    removeNodes: changes.addNodes.map((n) => n.id),
    addNodes: restoredNodes,
    updateNodes: updateBack,
    addEdges: removedEdges,
  };
}

/**
 * The named tool settings as they are in `flow`, as an edit that sets them
 * so: undoing an edit of them, restoring a version. A flow without an icon
 * gives '' (an edit's undefined would leave the icon there is).
 */
export function toolSettingsAsIn(flow: Flow, keys: readonly string[]): Partial<Flow['tool']> {
  return Object.fromEntries(
    keys.map((k) => [k, flow.tool[k as keyof Flow['tool']] ?? (k === 'icon' ? '' : undefined)]),
  );
}

/** The flow fields an edit may set besides `tool`, by name (the same names as on Flow). */
export const FLOW_FIELD_NAMES = () =>
  Object.keys(FlowFieldsUpdateSchema.unwrap().shape).filter((key) => key !== 'tool') as Exclude<
    keyof NonNullable<ChangeSet['flow']>,
    'tool'
  >[];

/** An empty change set, to build on. */
export const emptyChangeSet = (): ChangeSet => ({
  removeEdges: [],
  removeNodes: [],
  addNodes: [],
  updateNodes: [],
  addEdges: [],
});
