import type { StateCreator } from 'zustand';
import {
  applyChangeSet,
  ChangeSetSchema,
  invertChangeSet,
  type ChangeSet,
  type ChangeSetInput,
  type NodeUpdate,
} from '../../../core/model/change-set';
import { FlowbenchError } from '../../../core/model/errors';
import type { Flow, FlowEdge, FlowNode, Position } from '../../../core/model/flow';
import { buildAdjacency, wouldCreateCycle } from '../../../core/model/graph';
import type { Problem } from '../../../core/model/problems';
import { validateFlow } from '../../../core/model/validate';
import { nodeRegistry } from '../../../core/nodes/registry';
import { api } from '../api/client';
import { layoutFlow } from '../editor/auto-layout';
import { copyToClipboard, readClipboard } from '../editor/clipboard';
import type { AppState } from './app-store';
import { SaveQueue } from './save-queue';

interface HistoryEntry {
  forward: ChangeSet;
  backward: ChangeSet;
  coalesceKey: string | undefined;
  at: number;
}

export interface EditorSlice {
  flowId: string | undefined;
  flow: Flow | undefined;
  revs: Record<string, number>;
  problems: Problem[];
  versions: { version: number; createdAt: string }[];
  selectedNodes: string[];
  selectedEdges: string[];
  past: HistoryEntry[];
  future: HistoryEntry[];
  saveState: 'saved' | 'pending' | 'saving' | 'error';
  openFlow: (id: string) => Promise<void>;
  closeFlow: () => Promise<void>;
  flushSaves: () => Promise<void>;
  edit: (changes: ChangeSetInput, options?: { coalesceKey?: string }) => void;
  undo: () => void;
  redo: () => void;
  setSelection: (nodes: string[], edges: string[]) => void;
  selectAll: () => void;
  addNode: (type: string, position: Position) => string | undefined;
  canConnect: (source: string, target: string) => boolean;
  connect: (source: string, sourcePort: string, target: string, targetPort: string) => void;
  removeSelection: () => void;
  moveNodes: (moves: { id: string; position: Position }[]) => void;
  updateNode: (id: string, update: Omit<NodeUpdate, 'id' | 'rev'>, coalesceKey?: string) => void;
  updateFlowFields: (fields: NonNullable<ChangeSetInput['flow']>, coalesceKey?: string) => void;
  autoLayout: () => Promise<void>;
  copySelection: () => void;
  paste: () => void;
  duplicateSelection: () => void;
  publish: (note: string) => Promise<void>;
  reloadFlow: (reason?: string) => Promise<void>;
}

const HISTORY_LIMIT = 200;
/** Edits with the same key closer together than this are one undo step. */
const COALESCE_MS = 1000;

/** A node id not used yet: `<type>_<n>`, short because references name it. */
function freeNodeId(flow: Flow, base: string): string {
  const used = new Set(flow.nodes.map((n) => n.id));
  for (let i = 1; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

function freeEdgeId(flow: Flow): string {
  const used = new Set(flow.edges.map((e) => e.id));
  for (let i = flow.edges.length + 1; ; i++) if (!used.has(`e${i}`)) return `e${i}`;
}

let validationTimer: ReturnType<typeof setTimeout> | undefined;

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set, get, store) => {
  const queue = new SaveQueue(async (changes) => {
    const { flowId, revs } = get();
    if (!flowId) return;
    // Each update names the revision it was based on, as known when it is sent.
    const stamped = {
      ...changes,
      updateNodes: changes.updateNodes.map((u) => ({ ...u, ...(revs[u.id] !== undefined ? { rev: revs[u.id] } : {}) })),
    };
    set({ saveState: 'saving' });
    try {
      const result = await api.flows.applyChanges({ id: flowId, changes: stamped });
      const removed = new Set(changes.removeNodes);
      const nextRevs = Object.fromEntries(
        Object.entries({ ...get().revs, ...result.nodeRevs }).filter(([id]) => !removed.has(id)),
      );
      set({
        revs: nextRevs,
        ...(result.problems ? { problems: result.problems } : {}),
        saveState: queue.size > 0 ? 'pending' : 'saved',
      });
    } catch (error) {
      queue.clear();
      set({ saveState: 'error' });
      const code = error instanceof FlowbenchError ? error.code : 'ERROR';
      const message = error instanceof Error ? error.message : String(error);
      await get().reloadFlow(
        code === 'EDIT_CONFLICT'
          ? `Someone changed this flow elsewhere: ${message}. The flow was reloaded; redo your last edit.`
          : `Your last edit was not saved (${code}): ${message}`,
      );
    }
  });

  const revalidate = () => {
    clearTimeout(validationTimer);
    validationTimer = setTimeout(() => {
      const flow = get().flow;
      if (flow) set({ problems: validateFlow(flow).problems });
    }, 150);
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
    const next = applyChangeSet(flow, changes);
    const removed = new Set(changes.removeNodes);
    set((state) => ({
      flow: next,
      saveState: 'pending',
      selectedNodes: state.selectedNodes.filter((id) => !removed.has(id)),
      selectedEdges: state.selectedEdges.filter((id) => next.edges.some((e) => e.id === id)),
    }));
    queue.push(changes, options.coalesceKey);
    revalidate();
    if (options.isHistory) return;
    const backward = invertChangeSet(flow, changes);
    set((state) => {
      const last = state.past.at(-1);
      const now = Date.now();
      if (options.coalesceKey && last?.coalesceKey === options.coalesceKey && now - last.at < COALESCE_MS) {
        return { past: [...state.past.slice(0, -1), { ...last, forward: changes, at: now }], future: [] };
      }
      return {
        past: [...state.past, { forward: changes, backward, coalesceKey: options.coalesceKey, at: now }].slice(
          -HISTORY_LIMIT,
        ),
        future: [],
      };
    });
  };

  const parse = (input: ChangeSetInput) => ChangeSetSchema.parse(input);

  return {
    flowId: undefined,
    flow: undefined,
    revs: {},
    problems: [],
    versions: [],
    selectedNodes: [],
    selectedEdges: [],
    past: [],
    future: [],
    saveState: 'saved',

    async openFlow(id) {
      await queue.flush();
      // The canvas first; problems are found right after it is drawn. (prefetch-route.ts may
      // have asked for this already: see prefetch in api/transport.ts.)
      const detail = await api.flows.get({ id, withProblems: false });
      set({
        isCanvasReady: false,
        flowId: id,
        flow: detail.flow,
        revs: detail.revs,
        problems: detail.problems,
        versions: detail.versions,
        selectedNodes: [],
        selectedEdges: [],
        past: [],
        future: [],
        saveState: 'saved',
      });
      whenCanvasReady(revalidate);
    },
    async closeFlow() {
      await queue.flush();
      set({ flowId: undefined, flow: undefined, past: [], future: [] });
    },
    flushSaves: () => queue.flush(),
    async reloadFlow(reason) {
      const id = get().flowId;
      if (!id) return;
      const detail = await api.flows.get({ id });
      // After a conflict the history no longer matches the flow; otherwise keep it.
      set((state) => ({
        flow: detail.flow,
        revs: detail.revs,
        problems: detail.problems,
        versions: detail.versions,
        saveState: 'saved',
        past: reason ? [] : state.past,
        future: reason ? [] : state.future,
      }));
      if (reason) get().notify(reason);
    },
    edit(changes, options) {
      commit(parse(changes), options);
    },
    undo() {
      const entry = get().past.at(-1);
      if (!entry) return;
      set((state) => ({ past: state.past.slice(0, -1), future: [...state.future, entry] }));
      commit(entry.backward, { isHistory: true });
    },
    redo() {
      const entry = get().future.at(-1);
      if (!entry) return;
      set((state) => ({ future: state.future.slice(0, -1), past: [...state.past, entry] }));
      commit(entry.forward, { isHistory: true });
    },
    setSelection(nodes, edges) {
      set({ selectedNodes: nodes, selectedEdges: edges });
    },
    selectAll() {
      const flow = get().flow;
      if (flow) set({ selectedNodes: flow.nodes.map((n) => n.id), selectedEdges: flow.edges.map((e) => e.id) });
    },
    addNode(type, position) {
      const flow = get().flow;
      const definition = nodeRegistry.get(type);
      if (!flow || !definition) return undefined;
      const id = freeNodeId(flow, type);
      const node: FlowNode = {
        id,
        type,
        version: definition.version,
        label: definition.label,
        position,
        config: definition.defaults(),
      };
      commit(parse({ addNodes: [node] }));
      set({ selectedNodes: [id], selectedEdges: [] });
      return id;
    },
    canConnect(source, target) {
      const flow = get().flow;
      if (!flow || source === target) return false;
      const adjacency = buildAdjacency(
        flow.nodes.map((n) => n.id),
        flow.edges,
      );
      return !wouldCreateCycle(adjacency, source, target);
    },
    connect(source, sourcePort, target, targetPort) {
      const flow = get().flow;
      if (!flow) return;
      if (!get().canConnect(source, target)) {
        get().notify('That connection would make a cycle; flows run from inputs to outputs.');
        return;
      }
      if (
        flow.edges.some(
          (e) =>
            e.source === source && e.sourcePort === sourcePort && e.target === target && e.targetPort === targetPort,
        )
      )
        return;
      const edge: FlowEdge = { id: freeEdgeId(flow), source, sourcePort, target, targetPort };
      commit(parse({ addEdges: [edge] }));
    },
    removeSelection() {
      const { selectedNodes, selectedEdges } = get();
      if (selectedNodes.length === 0 && selectedEdges.length === 0) return;
      commit(parse({ removeNodes: selectedNodes, removeEdges: selectedEdges }));
    },
    moveNodes(moves) {
      const flow = get().flow;
      if (!flow || moves.length === 0) return;
      const changed = moves.filter((m) => {
        const node = flow.nodes.find((n) => n.id === m.id);
        return node && (node.position.x !== m.position.x || node.position.y !== m.position.y);
      });
      if (changed.length > 0) commit(parse({ updateNodes: changed.map((m) => ({ id: m.id, position: m.position })) }));
    },
    updateNode(id, update, coalesceKey) {
      commit(parse({ updateNodes: [{ id, ...update }] }), coalesceKey ? { coalesceKey } : {});
    },
    updateFlowFields(fields, coalesceKey) {
      commit(parse({ flow: fields }), coalesceKey ? { coalesceKey } : {});
    },
    async autoLayout() {
      const flow = get().flow;
      if (!flow) return;
      const positions = await layoutFlow(flow);
      get().moveNodes(positions);
    },
    copySelection() {
      const { flow, selectedNodes } = get();
      if (!flow || selectedNodes.length === 0) return;
      const ids = new Set(selectedNodes);
      copyToClipboard({
        nodes: flow.nodes.filter((n) => ids.has(n.id)),
        edges: flow.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
      });
      get().notify(`Copied ${ids.size} node${ids.size === 1 ? '' : 's'}`);
    },
    paste() {
      const flow = get().flow;
      const clip = readClipboard();
      if (!flow || !clip || clip.nodes.length === 0) return;
      // New ids for every pasted node; references between pasted nodes follow them.
      let working = flow;
      const renamed = new Map<string, string>();
      for (const node of clip.nodes) {
        const id = freeNodeId(working, node.type);
        renamed.set(node.id, id);
        working = { ...working, nodes: [...working.nodes, { ...node, id }] };
      }
      const rewrite = (config: Record<string, unknown>) => {
        let text = JSON.stringify(config);
        for (const [from, to] of renamed) text = text.split(`{{nodes.${from}.`).join(`{{nodes.${to}.`);
        return JSON.parse(text) as Record<string, unknown>;
      };
      const nodes = clip.nodes.map((n) => ({
        ...n,
        id: renamed.get(n.id) as string,
        config: rewrite(n.config),
        position: { x: n.position.x + 40, y: n.position.y + 40 },
      }));
      let edgeFlow: Flow = { ...flow, edges: [...flow.edges] };
      const edges = clip.edges.map((e) => {
        const edge = {
          ...e,
          id: freeEdgeId(edgeFlow),
          source: renamed.get(e.source) as string,
          target: renamed.get(e.target) as string,
        };
        edgeFlow = { ...edgeFlow, edges: [...edgeFlow.edges, edge] };
        return edge;
      });
      commit(parse({ addNodes: nodes, addEdges: edges }));
      set({ selectedNodes: nodes.map((n) => n.id), selectedEdges: [] });
    },
    duplicateSelection() {
      get().copySelection();
      get().paste();
    },
    async publish(note) {
      const id = get().flowId;
      if (!id) return;
      await queue.flush();
      try {
        const version = await api.flows.publish({ id, note });
        get().notify(`Published version ${version.version} as the tool ${version.toolName}`);
        await get().reloadFlow();
      } catch (error) {
        get().notify(error instanceof Error ? error.message : String(error));
      }
    },
  };
};
