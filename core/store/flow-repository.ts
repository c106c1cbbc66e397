import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  applyChangeSet,
  ChangeSetSchema,
  blockingProblems,
  isLayoutOnly,
  isMoveOnly,
  type ChangeResult,
  type ChangeSet,
  type ChangeSetInput,
} from '../model/change-set';
import { FlowbenchError } from '../model/errors';
import type { Flow, FlowNode } from '../model/flow';
import { isBuiltInToolName } from '../model/ids';
import { isoTime } from '../model/iso-time';
import { errorsIn, hasErrors, type Problem } from '../model/problems';
import type { FlowSummary } from '../model/summaries';
import { mergedFields, mergeFlowFields } from '../model/flow-fields-merge';
import { mergeNodeUpdate } from '../model/node-merge';
import { parseNodeConfig } from '../model/node-config';
import { mergeNotes } from '../model/notes-merge';
import { sameData } from '../model/same-json';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { droppedSettings, type DroppedSetting } from '../model/dropped-fields';
import { WRITE_TRANSACTION, type Db, type FlowbenchDatabase } from './database';
import { edgeToRow, flowFieldsToRow, flowFromRows, nodeFromRow, nodeToRow } from './flow-rows';
import { edges, flows, nodes } from './schema';
import { flowsFingerprint } from './flows-fingerprint';

export type { FlowSummary } from '../model/summaries';

// SQLite allows 32,766 bound variables per statement; 13 columns × 500 rows stays far below.
const INSERT_CHUNK = 500;

function validationError(message: string, problems: Problem[]): FlowbenchError {
  return new FlowbenchError('VALIDATION_ERROR', message, { problems });
}

/** The error for an id that names no flow. */
export function flowNotFound(id: string): FlowbenchError {
  return new FlowbenchError('FLOW_NOT_FOUND', `no flow has the id "${id}"`, { id });
}

/** Opening a flow is the editor's most frequent read: its queries are built and prepared once. */
function prepareFlowReads(db: Db) {
  const id = sql.placeholder('id');
  return {
    flow: db.select().from(flows).where(eq(flows.id, id)).prepare(),
    nodes: db.select().from(nodes).where(eq(nodes.flowId, id)).orderBy(asc(nodes.ord)).prepare(),
    edges: db.select().from(edges).where(eq(edges.flowId, id)).orderBy(asc(edges.ord)).prepare(),
  };
}

/** A flow with each node's revision, as an editor opens it. */
export interface LoadedFlow {
  flow: Flow;
  revs: Record<string, number>;
}

export class FlowRepository {
  private readonly db: Db;
  /** The flow and its nodes' revisions, from the same snapshot of the database; throws FLOW_NOT_FOUND. */
  readonly load: (id: string) => LoadedFlow;

  constructor(private readonly database: FlowbenchDatabase) {
    this.db = database.db;
    const reads = prepareFlowReads(this.db);
    // One read transaction: another process's edit cannot land between the three queries.
    this.load = database.sqlite.transaction((flowId: string): LoadedFlow => {
      const row = reads.flow.get({ id: flowId });
      if (!row) throw flowNotFound(flowId);
      const nodeRows = reads.nodes.all({ id: flowId });
      const edgeRows = reads.edges.all({ id: flowId });
      const revs: Record<string, number> = {};
      for (const node of nodeRows) revs[node.id] = node.rev;
      return { flow: flowFromRows(row, nodeRows, edgeRows), revs };
    });
  }

  /** A fingerprint of flows and agents as stored: equal strings, none of them changed (see flows-fingerprint.ts). */
  fingerprint(): string {
    return flowsFingerprint(this.database.sqlite);
  }

  /** Every flow's summary, by name; or the one flow `onlyId` names (none when it does not exist). */
  list(onlyId?: string): FlowSummary[] {
    const query = this.db
      .select({
        id: flows.id,
        name: flows.name,
        description: flows.description,
        toolName: flows.toolName,
        enabled: flows.toolEnabled,
        createdAt: flows.createdAt,
        updatedAt: flows.updatedAt,
        // Raw SQL: Drizzle renders columns unqualified inside these correlated subqueries.
        nodeCount: sql<number>`(select count(*) from nodes n where n.flow_id = flows.id)`,
        edgeCount: sql<number>`(select count(*) from edges e where e.flow_id = flows.id)`,
        nodesUpdatedAt: sql<number | null>`(select max(n.updated_at) from nodes n where n.flow_id = flows.id)`,
        publishedVersion: sql<number | null>`(select max(v.version) from flow_versions v where v.flow_id = flows.id)`,
        publishedAt: sql<number | null>`(select max(v.created_at) from flow_versions v where v.flow_id = flows.id)`,
      })
      .from(flows);
    const rows = (onlyId === undefined ? query : query.where(eq(flows.id, onlyId)))
      .orderBy(asc(flows.name), asc(flows.id))
      .all();
    return rows.map(({ nodesUpdatedAt, publishedVersion, publishedAt, ...row }) => {
      const updatedAt = Math.max(row.updatedAt, nodesUpdatedAt ?? 0);
      return {
        ...row,
        ...(publishedVersion !== null ? { publishedVersion } : {}),
        hasUnpublishedChanges: publishedAt !== null && updatedAt > publishedAt,
        createdAt: isoTime(row.createdAt),
        updatedAt: isoTime(updatedAt),
      };
    });
  }

  /** Loads a whole flow; throws FLOW_NOT_FOUND. */
  get(id: string): Flow {
    return this.load(id).flow;
  }

  exists(id: string): boolean {
    return this.db.select({ id: flows.id }).from(flows).where(eq(flows.id, id)).get() !== undefined;
  }

  /**
   * Finds a flow by id, tool name, name, or a unique id prefix of 6+ characters.
   * Throws FLOW_NOT_FOUND, or AMBIGUOUS_FLOW when a name is shared.
   */
  resolve(ref: string): FlowSummary {
    const all = this.list();
    const byId = all.find((f) => f.id === ref) ?? all.find((f) => f.toolName === ref);
    if (byId) return byId;
    const byName = all.filter((f) => f.name === ref);
    const candidates = byName.length > 0 ? byName : ref.length >= 6 ? all.filter((f) => f.id.startsWith(ref)) : [];
    if (candidates.length === 1) return candidates[0] as FlowSummary;
    if (candidates.length > 1) {
      throw new FlowbenchError(
        'AMBIGUOUS_FLOW',
        `${candidates.length} flows match "${ref}": ${candidates.map((f) => `${f.id} (${f.toolName})`).join(', ')}; use an id or tool name`,
        { ref, ids: candidates.map((f) => f.id) },
      );
    }
    throw new FlowbenchError('FLOW_NOT_FOUND', `no flow has the id, tool name or name "${ref}"`, { ref });
  }

  /** `name`, or `name_2`, `name_3`… whichever no flow uses yet and is not a built-in tool's. */
  freeToolName(name: string): string {
    let candidate = name;
    for (let i = 2; this.isToolNameTaken(candidate) || isBuiltInToolName(candidate); i++)
      candidate = `${name.slice(0, 120)}_${i}`;
    return candidate;
  }

  isToolNameTaken(toolName: string, exceptFlowId?: string): boolean {
    const condition =
      exceptFlowId === undefined
        ? eq(flows.toolName, toolName)
        : and(eq(flows.toolName, toolName), ne(flows.id, exceptFlowId));
    return this.db.select({ id: flows.id }).from(flows).where(condition).get() !== undefined;
  }

  /**
   * Problems only the services can tell (the agent library, flows calling
   * flows); set by openServices. Shown with the flow's problems, and checked
   * when it publishes; saving does not wait for them.
   */
  libraryCheck: (flow: Flow) => Problem[] = () => [];

  /** Validation's problems and the library's, as the editor and the CLI list them. */
  problemsOf(input: unknown): Problem[] {
    const { flow, problems } = this.validate(input);
    return flow ? [...problems, ...this.libraryCheck(flow)] : problems;
  }

  /** Validates a flow against the node types and the tool names other flows use. */
  validate(input: unknown): { flow?: Flow; problems: Problem[] } {
    return validateFlow(input, {
      catalogue: nodeRegistry,
      isToolNameTaken: (name, id) => this.isToolNameTaken(name, id),
    });
  }

  /**
   * Validates a flow about to be written (a new one, or one as an edit leaves
   * it), refusing besides the settings its nodes' configs have and their
   * types do not: validation drops them, and stored without them an edit of
   * `temprature` would answer ok and change nothing. For an edit, `stored`
   * is the flow before it and `touched` the nodes it adds or sets the config
   * of: a setting such a node already had (kept by an earlier
   * Flowbench) is not the edit's, and is dropped as validation always did;
   * refused, it would make every edit of that node fail.
   */
  private validateIncoming(
    input: unknown,
    edit?: { stored: Flow; touched: ReadonlySet<string> },
  ): { flow?: Flow; problems: Problem[] } {
    const { flow, problems } = this.validate(input);
    if (!flow) return { problems };
    const where = (setting: DroppedSetting) => `${setting.nodeId} ${setting.field}`;
    // A node the edit did not add or set the config of is as stored: only those it did are looked at.
    const before = new Set(edit ? droppedSettings(edit.stored, flow, edit.touched).map(where) : []);
    const unknown = droppedSettings(input, flow, edit?.touched)
      .filter((setting) => !before.has(where(setting)))
      .map(({ nodeId, type, field }): Problem => ({
        code: 'INVALID_CONFIG',
        severity: 'error',
        message: `node "${nodeId}": ${field} is not a setting of ${type} nodes`,
        nodeId,
        field,
      }));
    return { flow, problems: [...problems, ...unknown] };
  }

  /**
   * Stores a new flow after validating it. A flow whose id is already used gets
   * a fresh one. Nothing is written when anything is wrong, except that a draft
   * may keep the problems drafts are allowed (see DRAFT_TOLERATED_PROBLEMS).
   */
  create(input: unknown, options: { isDraft?: boolean } = {}): Flow {
    return this.db.transaction(() => {
      const candidate = this.withFreeId(input);
      const { flow, problems } = this.validateIncoming(candidate);
      // A draft (a foreign import) may keep the problems an editor shows; nothing structural.
      const refused = options.isDraft ? blockingProblems(problems) : problems;
      if (!flow || hasErrors(refused)) {
        const errors = errorsIn(refused).length;
        const name = (candidate as { name?: unknown } | null)?.name;
        const what = typeof name === 'string' ? `flow "${name}"` : 'the flow';
        throw validationError(`${what} was not saved: ${errors} problem${errors === 1 ? '' : 's'}`, refused);
      }
      const now = Date.now();
      this.db
        .insert(flows)
        .values({ ...flowFieldsToRow(flow, now), createdAt: now })
        .run();
      this.insertNodes(flow.id, flow.nodes, 0, now);
      this.insertEdges(flow.id, flow.edges, 0);
      this.database.catalogueEpoch.value++;
      return flow;
    }, WRITE_TRANSACTION);
  }

  private withFreeId(input: unknown): unknown {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    const record = input as Record<string, unknown>;
    const id = record.id;
    const isTaken =
      typeof id === 'string' && this.db.select({ id: flows.id }).from(flows).where(eq(flows.id, id)).get();
    return typeof id !== 'string' || id === '' || isTaken ? { ...record, id: randomUUID() } : record;
  }

  private insertNodes(flowId: string, list: readonly FlowNode[], firstOrd: number, now: number): void {
    for (let i = 0; i < list.length; i += INSERT_CHUNK) {
      const rows = list.slice(i, i + INSERT_CHUNK).map((node, j) => nodeToRow(flowId, node, firstOrd + i + j, now));
      this.db.insert(nodes).values(rows).run();
    }
  }

  private insertEdges(flowId: string, list: Flow['edges'], firstOrd: number): void {
    for (let i = 0; i < list.length; i += INSERT_CHUNK) {
      const rows = list.slice(i, i + INSERT_CHUNK).map((edge, j) => edgeToRow(flowId, edge, firstOrd + i + j));
      this.db.insert(edges).values(rows).run();
    }
  }

  /**
   * Applies an edit in one transaction. Layout-only edits (moves, renames) write
   * just the touched node rows; structural edits are validated first, and a
   * draft may keep unresolved references but nothing that breaks the graph.
   */
  applyChanges(flowId: string, input: ChangeSetInput): ChangeResult {
    const parsed = ChangeSetSchema.safeParse(input);
    if (!parsed.success) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `the change is malformed: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    const sqlite = this.database.sqlite;
    return this.db.transaction(() => {
      const applied = this.againstStored(flowId, parsed.data);
      const { changes, stale } = this.mergeNodeUpdates(flowId, applied);
      const before = sqlite.prepare('SELECT total_changes() AS n').pluck().get() as number;
      const nodeRevs = this.checkRevisions(flowId, changes);
      const validated = isLayoutOnly(changes) ? undefined : this.validateChange(flowId, changes);
      this.writeChanges(flowId, changes, validated, nodeRevs);
      // Flow fields may change what clients are offered; sticky notes (a layout-only change) do not.
      if (changes.flow && validated) this.database.catalogueEpoch.value++;
      const after = sqlite.prepare('SELECT total_changes() AS n').pluck().get() as number;
      const merged = stale.flatMap((id) => this.getNode(flowId, id) ?? []);
      const mergedFlow = mergedFields(parsed.data.flow, applied.flow);
      return {
        rowsWritten: after - before,
        nodeRevs,
        ...(merged.length > 0 ? { merged } : {}),
        ...(mergedFlow ? { mergedFlow } : {}),
      };
    }, WRITE_TRANSACTION);
  }

  /**
   * The change as it applies to the flow stored now, when it says what it
   * started from: its notes merged with those another window saved meanwhile
   * (ChangeSet.notesBase), its flow fields merged with theirs, or refused
   * where both changed one (ChangeSet.fieldsBase, flow-fields-merge.ts).
   */
  private againstStored(flowId: string, changes: ChangeSet): ChangeSet {
    const { notesBase, fieldsBase, ...rest } = changes;
    if (!rest.flow || (!notesBase && !fieldsBase)) return rest;
    const row = this.db.select().from(flows).where(eq(flows.id, flowId)).get();
    if (!row) throw flowNotFound(flowId);
    const stored = flowFromRows(row, [], []);
    const fields = mergeFlowFields(stored, changes) ?? rest.flow;
    // Notes nobody else changed are stored as sent (mergeNotes would give them the stored order).
    if (!notesBase || !fields.notes || sameData(stored.notes, notesBase)) return { ...rest, flow: fields };
    return { ...rest, flow: { ...fields, notes: mergeNotes(notesBase, stored.notes, fields.notes) } };
  }

  /**
   * Node updates that say what they started from (NodeUpdate.base), merged
   * with the nodes as stored (node-merge.ts): what the edit leaves to write,
   * with no revision left to check, and the nodes another window had changed
   * since the editor read them, whose merged settings go back to it.
   */
  private mergeNodeUpdates(flowId: string, changes: ChangeSet): { changes: ChangeSet; stale: string[] } {
    const added = new Set(changes.addNodes.map((node) => node.id));
    const ids = new Set(
      changes.updateNodes.filter((u) => u.base && !added.has(u.id) && !isMoveOnly(u)).map((u) => u.id),
    );
    if (ids.size === 0) return { changes, stale: [] };
    const stored = new Map(
      this.db
        .select()
        .from(nodes)
        .where(and(eq(nodes.flowId, flowId), inArray(nodes.id, [...ids])))
        .all()
        .map((row) => [row.id, { ...nodeFromRow(row), rev: row.rev }] as const),
    );
    const stale: string[] = [];
    const updateNodes = changes.updateNodes.map((update) => {
      const node = stored.get(update.id);
      // Gone, or a move: checkRevisions says so, or writes it as it is.
      if (!node || !ids.has(update.id)) return update;
      if (update.rev !== undefined && update.rev !== node.rev) stale.push(update.id);
      const spec = nodeRegistry.get(node.type);
      const normalize = (config: Record<string, unknown>, version: number) => {
        const parsed = spec && parseNodeConfig(spec, { config, version });
        return parsed?.ok ? parsed.config : config;
      };
      const merged = mergeNodeUpdate(node, update, normalize);
      // Merged with what is stored: there is no revision left to check.
      delete merged.rev;
      return merged;
    });
    return { changes: { ...changes, updateNodes }, stale };
  }

  /**
   * Refuses updates to nodes that are gone or changed since the editor read
   * them, and removals of nodes changed since (ChangeSet.removeRevs); the
   * revision each updated node has after the edit. A move alone
   * (isMoveOnly) is checked for the node being there only, and keeps its
   * revision: it is not in what this returns, so the window that moved it
   * does not learn of a revision another window's edit made.
   */
  private checkRevisions(flowId: string, changes: ChangeSet): Record<string, number> {
    const removeRevs = changes.removeRevs ?? {};
    const ids = [
      ...changes.updateNodes.map((u) => u.id).filter((id) => !changes.addNodes.some((n) => n.id === id)),
      ...changes.removeNodes.filter((id) => removeRevs[id] !== undefined),
    ];
    if (!this.exists(flowId)) throw flowNotFound(flowId);
    const current = new Map(
      ids.length === 0
        ? []
        : this.db
            .select({ id: nodes.id, rev: nodes.rev })
            .from(nodes)
            .where(and(eq(nodes.flowId, flowId), inArray(nodes.id, ids)))
            .all()
            .map((r) => [r.id, r.rev] as const),
    );
    for (const id of changes.removeNodes) {
      const rev = current.get(id);
      // Gone already: nothing of another window's is lost by removing it.
      if (rev === undefined || removeRevs[id] === undefined || removeRevs[id] === rev) continue;
      throw new FlowbenchError(
        'EDIT_CONFLICT',
        `node "${id}" was changed elsewhere before this removal (revision ${rev}, removal based on ${removeRevs[id]}); reload to see it`,
        { nodeId: id, rev },
      );
    }
    const revs: Record<string, number> = {};
    for (const update of changes.updateNodes) {
      if (changes.addNodes.some((n) => n.id === update.id)) continue;
      const rev = current.get(update.id);
      if (rev === undefined || changes.removeNodes.includes(update.id)) {
        throw new FlowbenchError('EDIT_CONFLICT', `node "${update.id}" no longer exists; reload the flow`, {
          nodeId: update.id,
        });
      }
      if (isMoveOnly(update)) continue;
      if (update.rev !== undefined && update.rev !== rev) {
        throw new FlowbenchError(
          'EDIT_CONFLICT',
          `node "${update.id}" was changed elsewhere (revision ${rev}, edit based on ${update.rev}); reload to see it`,
          {
            nodeId: update.id,
            rev,
          },
        );
      }
      revs[update.id] = rev + 1;
    }
    for (const node of changes.addNodes) revs[node.id] = 1;
    return revs;
  }

  private validateChange(flowId: string, changes: ChangeSet): Flow {
    const stored = this.get(flowId);
    const next = applyChangeSet(stored, changes);
    const touched = new Set([
      ...changes.addNodes.map((node) => node.id),
      ...changes.updateNodes.filter((update) => update.config !== undefined).map((update) => update.id),
    ]);
    const { flow, problems } = this.validateIncoming(next, { stored, touched });
    const blocking = blockingProblems(problems);
    if (!flow || blocking.length > 0) {
      throw validationError(`the change was refused: ${blocking.map((p) => p.message).join('; ')}`, blocking);
    }
    return flow;
  }

  private writeChanges(
    flowId: string,
    changes: ChangeSet,
    validated: Flow | undefined,
    revs: Record<string, number>,
  ): void {
    const now = Date.now();
    // Validation fills config defaults; store the normalized nodes it produced.
    const normalized = new Map(validated?.nodes.map((n) => [n.id, n]));
    if (
      validated &&
      (changes.flow ||
        changes.addNodes.length ||
        changes.removeNodes.length ||
        changes.addEdges.length ||
        changes.removeEdges.length)
    ) {
      this.db.update(flows).set(flowFieldsToRow(validated, now)).where(eq(flows.id, flowId)).run();
    } else if (changes.flow?.notes) {
      // Notes alone: checked by the change set's schema, written without validating the graph.
      this.db.update(flows).set({ notes: changes.flow.notes, updatedAt: now }).where(eq(flows.id, flowId)).run();
    }
    if (changes.removeEdges.length > 0) {
      this.db
        .delete(edges)
        .where(and(eq(edges.flowId, flowId), inArray(edges.id, changes.removeEdges)))
        .run();
    }
    if (changes.removeNodes.length > 0) {
      this.db
        .delete(nodes)
        .where(and(eq(nodes.flowId, flowId), inArray(nodes.id, changes.removeNodes)))
        .run();
    }
    if (changes.addNodes.length > 0) {
      const nextOrd = this.nextOrd(flowId, 'nodes');
      this.insertNodes(
        flowId,
        changes.addNodes.map((n) => normalized.get(n.id) ?? n),
        nextOrd,
        now,
      );
    }
    for (const update of changes.updateNodes) {
      if (changes.addNodes.some((n) => n.id === update.id)) continue;
      const node = normalized.get(update.id);
      this.db
        .update(nodes)
        .set({
          ...(update.label !== undefined ? { label: update.label } : {}),
          ...(update.position !== undefined ? { x: update.position.x, y: update.position.y } : {}),
          ...(node && update.config !== undefined ? { config: node.config, version: node.version } : {}),
          ...(update.maxAttempts !== undefined ? { maxAttempts: update.maxAttempts } : {}),
          ...(update.timeoutMs !== undefined ? { timeoutMs: update.timeoutMs } : {}),
          ...(update.onError !== undefined ? { onError: update.onError } : {}),
          ...(update.disabled !== undefined ? { disabled: update.disabled } : {}),
          ...(update.pin !== undefined ? { pin: update.pin } : {}),
          ...(update.forEach !== undefined ? { forEach: update.forEach } : {}),
          ...(revs[update.id] !== undefined ? { rev: revs[update.id] } : {}),
          updatedAt: now,
        })
        .where(and(eq(nodes.flowId, flowId), eq(nodes.id, update.id)))
        .run();
    }
    if (changes.addEdges.length > 0) {
      this.insertEdges(flowId, changes.addEdges, this.nextOrd(flowId, 'edges'));
    }
  }

  private nextOrd(flowId: string, table: 'nodes' | 'edges'): number {
    const t = table === 'nodes' ? nodes : edges;
    const max = this.db
      .select({ max: sql<number | null>`max(${t.ord})` })
      .from(t)
      .where(eq(t.flowId, flowId))
      .get();
    return (max?.max ?? -1) + 1;
  }

  /** Switches whether the flow is offered as an MCP tool; writes one row. */
  setEnabled(id: string, isEnabled: boolean): void {
    const result = this.db
      .update(flows)
      .set({ toolEnabled: isEnabled, updatedAt: Date.now() })
      .where(eq(flows.id, id))
      .run();
    if (result.changes === 0) throw flowNotFound(id);
    this.database.catalogueEpoch.value++;
  }

  /** Deletes a flow with its nodes, edges, versions and runs. */
  delete(id: string): void {
    const result = this.db.delete(flows).where(eq(flows.id, id)).run();
    if (result.changes === 0) throw flowNotFound(id);
    this.database.catalogueEpoch.value++;
  }

  /** One node as stored, for the editor's conflict recovery. */
  getNode(flowId: string, nodeId: string): FlowNode | undefined {
    const row = this.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.flowId, flowId), eq(nodes.id, nodeId)))
      .get();
    return row ? nodeFromRow(row) : undefined;
  }
}
