import type { StateCreator } from 'zustand';
import {
  addJoinedNodeChange,
  addNodeChange,
  canConnect,
  insertNodeChange,
  connectChange,
  DEFAULT_LOOP_PASSES,
  loopLimitChange,
  moveChange,
  type DraggedPort,
} from '../../../core/editing/edits';
import { layoutPositions, layoutSelected } from '../../../core/editing/layout';
import { clearOf } from '../../../core/editing/placement';
import { toggleDeactivatedChange } from '../../../core/editing/deactivate';
import {
  addNoteChange,
  moveNotesChange,
  notesAfterLayout,
  removeNotesChange,
  updateNoteChange,
} from '../../../core/editing/notes';
import { recordEdit, redo, undo, type HistoryEntry } from '../../../core/editing/history';
import { copyClip, pasteChanges } from '../../../core/editing/paste';
import { n8nPaste, type N8nPaste } from '../editor/n8n-paste';
import {
  clashingNodeId,
  movedRemovedMessage,
  putBackAllMessage,
  refusalTitle,
} from '../../../core/editing/refusal-text';
import {
  movesOfRemoved,
  onlyAddedNodes,
  onlyJoinsThereNow,
  putBackAllAdded,
  unsavedText,
} from '../../../core/editing/unsaved-text';
import {
  applyChangeSet,
  ChangeSetSchema,
  invertChangeSet,
  isLayoutOnly,
  isMoveOnly,
  type ChangeSet,
  type ChangeSetInput,
  type FlowFieldsUpdate,
  type NodeUpdate,
} from '../../../core/model/change-set';
import { isTransient, toFlowbenchError } from '../../../core/model/errors';
import { describeIssues } from '../../../core/model/parse';
import { rebaseFlowFields } from '../../../core/model/flow-fields-merge';
import { nodeUpdateBase, rebaseNode } from '../../../core/model/node-merge';
import type { Flow, FlowNode, Position } from '../../../core/model/flow';
import type { Note } from '../../../core/model/notes';
import type { Problem } from '../../../core/model/problems';
import { sameJson, valuesAt } from '../../../core/model/same-json';
import { validateFlow } from '../../../core/model/validate';
import { createValidationMemo } from '../../../core/model/validation-memo';
import { nodeRegistry } from '../../../core/nodes/registry';
import { api } from '../api/client';
import { copyToClipboard, readClipboard } from '../editor/clipboard';
import { noteIdOf, noteRfId, splitNoteIds } from '../editor/note-ids';
import type { AppState } from './app-store';
import { SaveQueue } from './save-queue';
import { readOnlyShown } from './versions-slice';
import { keepList, readList } from './stored-list';
import { cardDragged } from './card-drag';
import { counted } from '../counted';

export interface EditorSlice {
  flowId: string | undefined;
  flow: Flow | undefined;
  revs: Record<string, number>;
  problems: Problem[];
  /** The part of `problems` only the host can tell (agent library, flows calling flows), as it last said. */
  libraryProblems: Problem[];
  versions: { version: number; createdAt: string; note: string }[];
  /**
   * The host's answer to "the draft differs from its latest version", as it
   * last said (true after an edit): what hasUnpublishedChanges goes by until
   * the latest version is read and the draft is compared with it.
   */
  hostUnpublished: boolean;
  selectedNodes: string[];
  selectedEdges: string[];
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** `paused`: edits could not be saved for now (host gone, database locked); they are kept and retried. */
  saveState: 'saved' | 'pending' | 'saving' | 'paused' | 'error';
  /** Why saving is paused, in words for the toolbar. */
  saveProblem: string | undefined;
  openFlow: (id: string) => Promise<void>;
  closeFlow: () => Promise<void>;
  flushSaves: () => Promise<void>;
  edit: (changes: ChangeSetInput, options?: { coalesceKey?: string }) => void;
  undo: () => void;
  redo: () => void;
  setSelection: (nodes: string[], edges: string[]) => void;
  selectAll: () => void;
  addNode: (type: string, position: Position) => string | undefined;
  /** Adds a node joined to the port a connection was dragged from (let go on empty canvas), and selects it. */
  addJoinedNode: (type: string, position: Position, from: DraggedPort) => string | undefined;
  /** Puts a node of a type in the middle of an edge, and selects it. */
  insertNode: (type: string, edgeId: string) => string | undefined;
  /** Adds a sticky note and selects it; its id on the canvas (note-ids.ts). */
  addNote: (position: Position) => string | undefined;
  updateNote: (id: string, update: Partial<Omit<Note, 'id'>>, coalesceKey?: string) => void;
  canConnect: (source: string, target: string) => boolean;
  connect: (source: string, sourcePort: string, target: string, targetPort: string) => void;
  /** Sets how many passes a loop edge allows. */
  setLoopLimit: (edgeId: string, maxIterations: number) => void;
  removeSelection: () => void;
  removeEdges: (ids: string[]) => void;
  /** Moves nodes and notes (canvas ids) as one edit (edits with the same `coalesceKey` in a row: one Undo step). */
  moveNodes: (moves: { id: string; position: Position }[], coalesceKey?: string) => void;
  updateNode: (id: string, update: Omit<NodeUpdate, 'id' | 'rev'>, coalesceKey?: string) => void;
  /** Deactivates the nodes (runs pass over them), or activates them when all are deactivated: one edit. */
  toggleDeactivated: (ids: string[]) => void;
  updateFlowFields: (fields: NonNullable<ChangeSetInput['flow']>, coalesceKey?: string) => void;
  /**
   * Lays out the selected nodes when two or more are selected (n8n's tidy-up of
   * a selection), else the whole flow; resolves with which it did.
   */
  autoLayout: () => Promise<'selection' | 'flow' | undefined>;
  copySelection: () => void;
  paste: () => void;
  /** Pastes what another tool copied (n8n's nodes) from the system clipboard's text; false when it is none of that. */
  pasteText: (text: string) => boolean;
  duplicateSelection: () => void;
  publish: (note: string) => Promise<void>;
  /** Reads the flow again; `afterRefusal` also drops the undo history, which no longer matches it. */
  reloadFlow: (afterRefusal?: boolean) => Promise<void>;
}

/**
 * Whether an edit can change none of the flow's problems: it only moves cards
 * or edits notes (a label, which a problem may quote, is checked). So a drop
 * is not followed by a check of the whole flow, 45 ms in one piece at 10,000
 * nodes. A check an earlier edit is waiting for still runs, on the flow as it is then.
 */
const changesNoProblem = (changes: ChangeSet) =>
  isLayoutOnly(changes) && changes.updateNodes.every((update) => update.label === undefined);

/** Cancels the check of the open flow that is waiting to run, if one is. */
let cancelCheck: (() => void) | undefined;
/**
 * Longest the first check of a flow just opened waits for the browser to be
 * idle with no card dragged (see checkWhenIdle); on an idle page it runs
 * within a frame or two.
 */
const OPENING_CHECK_WAIT_MS = 5000;
/** How many times a flow was asked to open: only the latest one's reply is shown. */
let openings = 0;
/** What checking the open flow found about its nodes and edges, so an edit re-checks only what it changed. */
let validationMemo = createValidationMemo();

const unsavedKey = (flowId: string) => `flowbench.unsaved.${flowId}`;

/** Keeps the edits waiting to be saved in localStorage, or forgets them once there are none. */
function keepUnsaved(flowId: string | undefined, waiting: readonly ChangeSet[]): void {
  if (flowId) keepList(localStorage, unsavedKey(flowId), waiting);
}

function readUnsaved(flowId: string): ChangeSet[] {
  return readList(localStorage, unsavedKey(flowId), (value) => {
    const parsed = ChangeSetSchema.array().safeParse(value);
    return parsed.success ? parsed.data : [];
  });
}

/**
 * An edit with the values it started from: of the flow's own fields and notes
 * (ChangeSet.fieldsBase, notesBase), and of each node setting it changes
 * (NodeUpdate.base; a move needs none). An edit that has them already (one
 * restored after a reload) keeps its own: it was made on the flow before.
 */
function withBase(flow: Flow, edit: ChangeSet): ChangeSet {
  const nodes = new Map(flow.nodes.map((node) => [node.id, node]));
  const changes = {
    ...edit,
    updateNodes: edit.updateNodes.map((update) => {
      const node = nodes.get(update.id);
      return node && !isMoveOnly(update) ? { ...update, base: update.base ?? nodeUpdateBase(node, update) } : update;
    }),
  };
  if (!changes.flow) return changes;
  const { notes, ...fields } = changes.flow;
  const fieldsBase = valuesAt(flow, Object.keys(fields));
  return {
    ...changes,
    ...(notes ? { notesBase: changes.notesBase ?? flow.notes } : {}),
    ...(Object.keys(fieldsBase).length > 0 ? { fieldsBase: { ...fieldsBase, ...changes.fieldsBase } } : {}),
  };
}

/** The flow with the fields the host merged (ChangeResult.mergedFlow) in place of its own. */
const withFields = (flow: Flow, fields: FlowFieldsUpdate | undefined): Flow =>
  fields ? { ...flow, ...fields, tool: { ...flow.tool, ...fields.tool } } : flow;

/** The flow with these nodes in place of its nodes of the same id. */
const withNodes = (flow: Flow, nodes: readonly FlowNode[]): Flow => {
  if (nodes.length === 0) return flow;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  return { ...flow, nodes: flow.nodes.map((node) => byId.get(node.id) ?? node) };
};

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set, get, store) => {
  /**
   * The flow as the host last confirmed it, before the edits waiting to be
   * saved: what a refused edit's texts started from, which Put back merges
   * from (UnsavedText.base). Kept only while edits wait.
   */
  let confirmed: Flow | undefined;
  const queue = new SaveQueue(
    async (changes) => {
      const { flowId, revs } = get();
      if (!flowId) return 'sent';
      // Each update and removal names the revision it was based on, as known when it is sent.
      const removeRevs = Object.fromEntries(
        changes.removeNodes.flatMap((id) => (revs[id] !== undefined ? [[id, revs[id]]] : [])),
      );
      const stamped = {
        ...changes,
        updateNodes: changes.updateNodes.map((u) => ({
          ...u,
          ...(revs[u.id] !== undefined ? { rev: revs[u.id] } : {}),
        })),
        ...(Object.keys(removeRevs).length > 0 ? { removeRevs } : {}),
      };
      set({ saveState: 'saving' });
      try {
        const result = await api.flows.applyChanges({ id: flowId, changes: stamped });
        // The host has this edit (merged with another window's, for the nodes in result.merged and the
        // flow's fields in result.mergedFlow):
        // the edits still waiting started from the flow with it.
        // Worked out only when needed: on a big flow it is a copy of every node, on every save.
        const wasMerged = result.merged || result.mergedFlow;
        const sent = confirmed && (queue.size > 1 || wasMerged) ? applyChangeSet(confirmed, changes) : undefined;
        confirmed =
          queue.size > 1 && sent ? withFields(withNodes(sent, result.merged ?? []), result.mergedFlow) : undefined;
        if (wasMerged) showMerged(result.merged ?? [], result.mergedFlow, sent);
        const removed = new Set(changes.removeNodes);
        const nextRevs = Object.fromEntries(
          Object.entries({ ...get().revs, ...result.nodeRevs }).filter(([id]) => !removed.has(id)),
        );
        set({
          revs: nextRevs,
          ...(result.problems ? { problems: result.problems } : {}),
          ...(result.libraryProblems ? { libraryProblems: result.libraryProblems } : {}),
          // The queue lets this edit go once it is sent: anything beyond it is still waiting.
          saveState: queue.size > 1 ? 'pending' : 'saved',
          saveProblem: undefined,
        });
        return 'sent';
      } catch (error) {
        const failure = toFlowbenchError(error);
        if (isTransient(failure)) {
          // The edit is kept and sent again; the toolbar says why it is waiting.
          set({
            saveState: 'paused',
            saveProblem:
              failure.code === 'HOST_UNREACHABLE'
                ? 'Flowbench is not reachable'
                : 'the database is busy (another program is writing to it)',
          });
          return 'retry';
        }
        const refused = queue.clear();
        const before = confirmed;
        let mine = get().flow;
        set({ saveState: 'error' });
        // Flowbench may have stopped since it answered: the text is still shown, against no stored flow.
        const reloaded = await get()
          .reloadFlow(true)
          .then(
            () => true,
            () => false,
          );
        // Edits typed while the flow reloaded were made on what it showed before, refused edits and all:
        // sent now, with the new revisions, they would overwrite the other window's text unseen.
        const later = queue.clear();
        confirmed = undefined;
        if (mine) mine = later.reduce(applyChangeSet, mine);
        refused.push(...later);
        // What the person typed in the refused edits is shown to be copied back, not dropped with them.
        const stored = reloaded ? get().flow : undefined;
        const unsaved = mine ? unsavedText(mine, stored, refused, before) : [];
        // Another window made the same connection at once: it is there, once; nothing to put back.
        if (stored && onlyJoinsThereNow(refused, stored)) {
          get().notify('Another window made the same connection at the same time; it is there once');
          return 'sent';
        }
        // Cards moved here were removed there: the moves of the cards still there are made again.
        const moved = stored && movesOfRemoved(refused, stored);
        if (stored && moved) {
          const again = moveChange(stored, moved.moves);
          if (again) get().edit(again);
          get().notify(movedRemovedMessage(moved.gone, again !== undefined));
          return 'sent';
        }
        const problems = (failure.data?.problems ?? []) as Problem[];
        const clash = clashingNodeId(problems, refused);
        // Only an id another window's new node took stood in the way of new nodes: they go back at once
        // under free ids, as Put back would put them, instead of waiting in a list for the person to do it.
        if (clash && reloaded && onlyAddedNodes(refused) && unsaved.every((item) => item.added)) {
          const back = stored && putBackAllAdded(stored, unsaved);
          if (back) {
            get().edit(back.changes);
            const last = back.changes.addNodes?.at(-1)?.id;
            if (last) get().setSelection([last], []);
            get().notify(putBackAllMessage(clash, back.ids));
            return 'sent';
          }
        }
        // The reasons stay on screen until closed: a toast would vanish with them.
        get().showRefusal({ title: refusalTitle(failure, clash, reloaded, unsaved), problems, unsaved });
        return 'sent';
      }
    },
    // What waits to be saved is kept in this browser too: a reload (or a crash) while saving is paused loses nothing.
    (waiting) => keepUnsaved(get().flowId, waiting),
  );

  /** How the inspector names a node type's config key ("return values" for returnValues), in lower case. */
  const settingName = (type: string, key: string): string =>
    nodeRegistry
      .get(type)
      ?.editor.find((field) => field.key === key)
      ?.label.toLowerCase() ?? key;

  /**
   * Shows what the host merged into this window's edit from another window's
   * (the temperature set there while the prompt was written here; a line of
   * the description, a note), and says so. `sent` is the flow as this
   * window expected it after the edit; a setting changed here again since
   * keeps this window's value, which the host merges when that edit is saved.
   */
  const showMerged = (
    merged: readonly FlowNode[],
    mergedFlow: FlowFieldsUpdate | undefined,
    sent: Flow | undefined,
  ) => {
    const shownFlow = get().flow;
    if (!shownFlow) return;
    const told: string[] = [];
    let flow = shownFlow;
    if (mergedFlow) {
      const rebased = rebaseFlowFields(flow, sent ?? flow, mergedFlow);
      if (rebased.taken.length > 0) told.push(`the flow's ${rebased.taken.join(', ')}`);
      flow = rebased.flow;
    }
    const rebased = merged.flatMap((host) => {
      const shown = flow.nodes.find((node) => node.id === host.id);
      if (!shown) return [];
      const { node, taken } = rebaseNode(shown, sent?.nodes.find((n) => n.id === host.id) ?? shown, host, (key) =>
        settingName(host.type, key),
      );
      if (taken.length > 0) told.push(`"${node.label || node.id}" (${taken.join(', ')})`);
      return [node];
    });
    if (told.length === 0) return;
    set({ flow: withNodes(flow, rebased) });
    revalidate();
    get().notify(`Saved, keeping another window's change to ${told.join(' and ')}, now shown here`);
  };

  /** Opens a flow's edits a reload left unsaved: shown at once, and queued to be saved. */
  const restoreUnsaved = (id: string) => {
    const unsaved = readUnsaved(id);
    if (unsaved.length === 0) return;
    for (const changes of unsaved) commit(changes, { isHistory: true });
    get().notify(
      `Restored ${unsaved.length} edit${unsaved.length === 1 ? '' : 's'} that had not been saved before the page was reloaded`,
    );
  };

  /** Leaves the open flow's queue; edits that could not be saved stay kept for when it is opened again. */
  const leaveFlow = async () => {
    await queue.flush();
    queue.forget();
    confirmed = undefined;
  };

  const check = () => {
    cancelCheck = undefined;
    const { flow, libraryProblems } = get();
    if (!flow) return;
    // The host's part as it last said, less what was about nodes since removed; the next save brings it up to date.
    const nodeIds = new Set(flow.nodes.map((n) => n.id));
    const library = libraryProblems.filter((p) => p.nodeId === undefined || nodeIds.has(p.nodeId));
    const { problems } = validateFlow(flow, { catalogue: nodeRegistry, memo: validationMemo });
    set({ problems: [...problems, ...library] });
  };

  /** Checks the flow 150 ms after the last edit. */
  const revalidate = () => {
    cancelCheck?.();
    const timer = setTimeout(check, 150);
    cancelCheck = () => clearTimeout(timer);
  };

  /**
   * The first check of a flow just opened waits until the browser is idle and
   * no card is being dragged (at most OPENING_CHECK_WAIT_MS): a 10,000-node
   * flow's takes 250-500 ms in one piece, which a drag begun before it started
   * would stutter through (one measured at once after the canvas showed ran at
   * 20-25 frames a second instead of 30-40). It still holds up whatever is
   * pressed while it runs: it does not run in pieces.
   */
  const checkWhenIdle = (waitUntil = performance.now() + OPENING_CHECK_WAIT_MS) => {
    cancelCheck?.();
    if (typeof requestIdleCallback !== 'function') return revalidate();
    const whenIdle = () => (cardDragged() && performance.now() < waitUntil ? checkWhenIdle(waitUntil) : check());
    const idle = requestIdleCallback(whenIdle, { timeout: Math.max(1, waitUntil - performance.now()) });
    cancelCheck = () => cancelIdleCallback(idle);
  };

  /** Runs once the canvas is interactive: opening a big flow draws it before checking it. */
  const whenCanvasReady = (run: () => void) => {
    if (get().isCanvasReady) return run();
    const stop = store.subscribe((state) => {
      if (!state.isCanvasReady) return;
      stop();
      run();
    });
  };

  /** Applies a change locally at once, queues it for saving, and records how to undo it. */
  const commit = (changes: ChangeSet, options: { coalesceKey?: string; isHistory?: boolean } = {}) => {
    const flow = get().flow;
    if (!flow) return;
    // The canvas shows a past run's flow: an edit there would land on a draft nobody sees.
    const shown = readOnlyShown(get());
    if (shown) {
      get().notify(`This is ${shown}, shown read-only: go back to the draft to edit`);
      return;
    }
    const next = applyChangeSet(flow, changes);
    const removed = new Set(changes.removeNodes);
    set((state) => ({
      flow: next,
      hostUnpublished: true,
      saveState: 'pending',
      selectedNodes: state.selectedNodes.filter((id) => !removed.has(id)),
      selectedEdges: state.selectedEdges.filter((id) => next.edges.some((e) => e.id === id)),
    }));
    // The first edit to wait: the flow before it is the one the host has.
    if (queue.size === 0) confirmed = flow;
    // Saved with what the edit started from, so that the host merges it with what another window saved
    // meanwhile instead of overwriting that (ChangeSet.notesBase, ChangeSet.fieldsBase).
    queue.push(withBase(flow, changes), options.coalesceKey);
    if (!changesNoProblem(changes)) revalidate();
    if (options.isHistory) return;
    const backward = invertChangeSet(flow, changes);
    set((state) => recordEdit(state, { forward: changes, backward, coalesceKey: options.coalesceKey }, Date.now()));
  };

  const parse = (input: ChangeSetInput) => ChangeSetSchema.parse(input);

  /**
   * An edit a person made in a field, or undefined after saying why it is not
   * made: one the schema refuses (a text over its field's length, however it
   * got there) threw at the page, uncaught, at every key.
   */
  const typedEdit = (input: ChangeSetInput): ChangeSet | undefined => {
    const parsed = ChangeSetSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    // Each issue by the field it is in (`label`), not the change set's path to it (`updateNodes.0.label`).
    const byField = parsed.error.issues.map((issue) => ({ path: issue.path.slice(-1), message: issue.message }));
    get().notify(`Not changed: ${describeIssues(byField, 'the edit')}`);
    return undefined;
  };

  /** Commits a change that adds a node (with its edges) and selects that node; undefined when there is none. */
  const addAndSelect = (added: { changes: ChangeSetInput; nodeId: string } | undefined | false) => {
    if (!added) return undefined;
    commit(parse(added.changes));
    set({ selectedNodes: [added.nodeId], selectedEdges: [] });
    return added.nodeId;
  };

  return {
    flowId: undefined,
    flow: undefined,
    revs: {},
    problems: [],
    libraryProblems: [],
    versions: [],
    hostUnpublished: false,
    selectedNodes: [],
    selectedEdges: [],
    past: [],
    future: [],
    saveState: 'saved',
    saveProblem: undefined,

    async openFlow(id) {
      const opening = ++openings;
      await leaveFlow();
      // The canvas first; problems are found right after it is drawn. (prefetch-route.ts may
      // have asked for this already: see prefetch in api/transport.ts.)
      const detail = await api.flows.get({ id, withProblems: false });
      // Another flow was opened meanwhile (a link followed at once): its flow is the one to show.
      if (opening !== openings) return;
      set({
        isCanvasReady: false,
        flowId: id,
        flow: detail.flow,
        revs: detail.revs,
        problems: detail.problems,
        libraryProblems: detail.libraryProblems,
        versions: detail.versions,
        hostUnpublished: detail.hasUnpublishedChanges,
        latest: undefined,
        selectedNodes: [],
        selectedEdges: [],
        past: [],
        future: [],
        saveState: 'saved',
        refusal: undefined,
        // The Run tab belongs to the flow: another flow's run and runs are not shown here.
        run: undefined,
        runId: undefined,
        nodeStatus: {},
        stepLines: {},
        stepOutputs: {},
        stepStarted: {},
        carriedEdges: new Set(),
        runSnapshot: undefined,
        tokens: {},
        recentRuns: [],
        hasMoreRuns: false,
        runFilter: {},
        isStoredRun: false,
        // Find searched the flow that was open.
        isFindOpen: false,
      });
      validationMemo = createValidationMemo();
      restoreUnsaved(id);
      whenCanvasReady(checkWhenIdle);
      // After the canvas too: a published flow's version is as big as the flow, and not needed to draw it.
      whenCanvasReady(() => void get().readLatest());
    },
    async closeFlow() {
      await leaveFlow();
      set({ flowId: undefined, flow: undefined, past: [], future: [] });
    },
    flushSaves: () => queue.flush(),
    async reloadFlow(afterRefusal) {
      const id = get().flowId;
      if (!id) return;
      const detail = await api.flows.get({ id });
      // Another flow was opened while this one was read again (a change in the database, then a
      // link followed): this flow must not replace it under its id.
      if (get().flowId !== id) return;
      // The person edited while the flow was being fetched: what they typed wins. Their edits go
      // out with the revisions they were based on, so a real clash is still refused (EDIT_CONFLICT).
      if (!afterRefusal && (queue.size > 0 || get().saveState !== 'saved')) return;
      // After a conflict the history no longer matches the flow; otherwise keep it. What did not
      // change keeps its object: a reload because the database changed (another process's runs,
      // every second while a client calls tools) then redraws nothing.
      set((state) => ({
        flow: sameJson(state.flow, detail.flow) && state.flow ? state.flow : detail.flow,
        revs: sameJson(state.revs, detail.revs) ? state.revs : detail.revs,
        problems: sameJson(state.problems, detail.problems) ? state.problems : detail.problems,
        libraryProblems: detail.libraryProblems,
        versions: sameJson(state.versions, detail.versions) ? state.versions : detail.versions,
        hostUnpublished: detail.hasUnpublishedChanges,
        saveState: 'saved',
        past: afterRefusal ? [] : state.past,
        future: afterRefusal ? [] : state.future,
      }));
      // A publish, here or elsewhere, makes another version the latest.
      await get().readLatest();
    },
    edit(changes, options) {
      commit(parse(changes), options);
    },
    undo() {
      const step = undo(get(), get().flow);
      if (!step) return;
      set(step.history);
      commit(step.changes, { isHistory: true });
    },
    redo() {
      const step = redo(get(), get().flow);
      if (!step) return;
      set(step.history);
      commit(step.changes, { isHistory: true });
    },
    setSelection(nodes, edges) {
      // One node chosen while the Tests or Problems tab is open (a card clicked, a problem's node
      // shown): its settings are what the person came for. The Run tab stays: it shows the node's step.
      const { panel, selectedNodes } = get();
      const choseOne = nodes.length === 1 && !selectedNodes.includes(nodes[0] ?? '');
      const toInspector = choseOne && (panel === 'tests' || panel === 'problems');
      set({ selectedNodes: nodes, selectedEdges: edges, ...(toInspector ? { panel: 'inspector' as const } : {}) });
    },
    selectAll() {
      const flow = get().flow;
      if (!flow) return;
      set({
        selectedNodes: [...flow.notes.map((n) => noteRfId(n.id)), ...flow.nodes.map((n) => n.id)],
        selectedEdges: flow.edges.map((e) => e.id),
      });
    },
    addNode(type, position) {
      const flow = get().flow;
      const definition = nodeRegistry.get(type);
      return addAndSelect(flow && definition && addNodeChange(flow, definition, position));
    },
    addJoinedNode(type, position, from) {
      const flow = get().flow;
      const definition = nodeRegistry.get(type);
      return addAndSelect(flow && definition && addJoinedNodeChange(flow, definition, position, from));
    },
    insertNode(type, edgeId) {
      const flow = get().flow;
      const definition = nodeRegistry.get(type);
      return addAndSelect(flow && definition && insertNodeChange(flow, definition, edgeId));
    },
    addNote(position) {
      const flow = get().flow;
      if (!flow) return undefined;
      const { changes, noteId } = addNoteChange(flow, position);
      commit(parse(changes));
      set({ selectedNodes: [noteRfId(noteId)], selectedEdges: [] });
      return noteRfId(noteId);
    },
    updateNote(id, update, coalesceKey) {
      const flow = get().flow;
      const changes = flow && updateNoteChange(flow, id, update);
      if (changes) commit(parse(changes), coalesceKey ? { coalesceKey } : {});
    },
    canConnect(source, target) {
      const flow = get().flow;
      return flow !== undefined && canConnect(flow, source, target);
    },
    connect(source, sourcePort, target, targetPort) {
      const flow = get().flow;
      if (!flow) return;
      const result = connectChange(flow, { source, sourcePort, target, targetPort });
      if (result.kind === 'refused') get().notify(`Not connected: ${result.reason}`);
      if (result.kind !== 'change') return;
      commit(parse(result.changes));
      if (result.isLoop) {
        get().notify(
          `That edge goes back, so it is a loop: it runs the nodes between again, at most ${DEFAULT_LOOP_PASSES} passes. Select it to change the limit.`,
        );
      }
    },
    setLoopLimit(edgeId, maxIterations) {
      const flow = get().flow;
      const changes = flow && loopLimitChange(flow, edgeId, maxIterations);
      if (changes) commit(parse(changes), { coalesceKey: `${edgeId}.loop` });
    },
    removeSelection() {
      const { flow, selectedNodes, selectedEdges } = get();
      if (!flow || (selectedNodes.length === 0 && selectedEdges.length === 0)) return;
      const { nodeIds, noteIds } = splitNoteIds(selectedNodes);
      commit(parse({ removeNodes: nodeIds, removeEdges: selectedEdges, ...removeNotesChange(flow, noteIds) }));
      set({ selectedNodes: [] });
    },
    removeEdges(ids) {
      if (ids.length === 0) return;
      commit(parse({ removeEdges: ids }));
      set({ selectedEdges: get().selectedEdges.filter((id) => !ids.includes(id)) });
    },
    moveNodes(moves, coalesceKey) {
      const flow = get().flow;
      if (!flow) return;
      const nodeMoves: typeof moves = [];
      const noteMoves: typeof moves = [];
      for (const move of moves) {
        const noteId = noteIdOf(move.id);
        if (noteId === undefined) nodeMoves.push(move);
        else noteMoves.push({ id: noteId, position: move.position });
      }
      const changes = { ...moveChange(flow, nodeMoves), ...moveNotesChange(flow, noteMoves) };
      if (Object.keys(changes).length > 0) commit(parse(changes), coalesceKey ? { coalesceKey } : {});
    },
    updateNode(id, update, coalesceKey) {
      const changes = typedEdit({ updateNodes: [{ id, ...update }] });
      if (changes) commit(changes, coalesceKey ? { coalesceKey } : {});
    },
    toggleDeactivated(ids) {
      const flow = get().flow;
      const changes = flow && toggleDeactivatedChange(flow, ids);
      if (changes) commit(parse(changes));
    },
    updateFlowFields(fields, coalesceKey) {
      const changes = typedEdit({ flow: fields });
      if (changes) commit(changes, coalesceKey ? { coalesceKey } : {});
    },
    async autoLayout() {
      const flow = get().flow;
      if (!flow) return undefined;
      const chosen = new Set(splitNoteIds(get().selectedNodes).nodeIds);
      const isSelection = chosen.size >= 2;
      const positions = isSelection
        ? clearOf(
            flow.nodes.filter((n) => !chosen.has(n.id)),
            await layoutSelected(flow.nodes, flow.edges, chosen),
          )
        : await layoutPositions(flow.nodes, flow.edges);
      // Laid out, as the flow is now (an edit may have come in meanwhile). The notes around some
      // cards go with them: one edit, one undo step.
      const now = get().flow;
      if (!now) return undefined;
      const notes = notesAfterLayout(now, positions);
      const changes = { ...moveChange(now, positions), ...(notes ? { flow: { notes } } : {}) };
      if (Object.keys(changes).length > 0) commit(parse(changes));
      // Said, since the same key lays out the whole flow with less selected.
      if (isSelection) get().notify(`Laid out the ${chosen.size} selected nodes; the others stay where they are`);
      return isSelection ? 'selection' : 'flow';
    },
    copySelection() {
      const { flow, selectedNodes } = get();
      if (!flow || selectedNodes.length === 0) return;
      const { nodeIds, noteIds } = splitNoteIds(selectedNodes);
      const clip = copyClip(flow, nodeIds, noteIds);
      copyToClipboard(clip);
      get().notify(
        `Copied ${[count(clip.nodes.length, 'node'), count(noteIds.length, 'note')].filter(Boolean).join(' and ')}`,
      );
    },
    paste() {
      const flow = get().flow;
      const clip = readClipboard();
      if (!flow || !clip || (clip.nodes.length === 0 && !clip.notes?.length)) return;
      const { changes, nodeIds, noteIds } = pasteChanges(flow, clip);
      commit(parse(changes));
      set({ selectedNodes: [...noteIds.map(noteRfId), ...nodeIds], selectedEdges: [] });
    },
    pasteText(text) {
      const flow = get().flow;
      if (!flow) return false;
      let pasted: N8nPaste | undefined;
      try {
        pasted = n8nPaste(flow, text);
      } catch (error) {
        get().notify(`Not pasted: ${(error as Error).message}`);
        return true;
      }
      if (!pasted) return false;
      commit(parse(pasted.changes));
      set({ selectedNodes: [...pasted.noteIds.map(noteRfId), ...pasted.nodeIds], selectedEdges: [] });
      get().notify(
        `Pasted ${count(pasted.nodeIds.length, 'node')} from n8n${pasted.problems > 0 ? `; ${count(pasted.problems, 'thing')} to review in Problems` : ''}`,
      );
      return true;
    },
    duplicateSelection() {
      get().copySelection();
      get().paste();
    },
    async publish(note) {
      const id = get().flowId;
      if (!id) return;
      await queue.flush();
      if (queue.size > 0) {
        get().notify('Your latest edits are not saved yet (saving is paused); publish once they are.');
        return;
      }
      try {
        const version = await api.flows.publish({ id, note });
        get().notify(`Published version ${version.version} as the tool ${version.toolName}`);
        await get().reloadFlow();
      } catch (error) {
        const failure = toFlowbenchError(error);
        // Failing test cases are a reason to read and act on, not a toast that goes away.
        if (failure.code === 'TESTS_FAILED') {
          get().showRefusal({ title: failure.message, problems: [] });
          get().setPanel('tests');
        } else get().notify(failure.message);
      }
    },
  };
};

/** "2 nodes", "1 note"; '' for none. */
const count = (n: number, what: string): string => (n === 0 ? '' : counted(n, what));
