import type { ChangeSetInput } from '../model/change-set';
import type { Flow, FlowEdge, FlowNode } from '../model/flow';
import type { Note } from '../model/notes';
import { renameReferences } from '../model/template';
import { freeNodeId, newItemId } from './ids';

/** Copied nodes with the edges between them, and copied sticky notes. */
export interface Clip {
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Absent in what was copied before notes existed. */
  notes?: Note[];
}

/** How far pasted nodes sit from the originals, so both stay visible. */
export const PASTE_OFFSET = 40;

/** The selected nodes and the edges that join two of them, and the selected notes. */
export function copyClip(flow: Flow, nodeIds: readonly string[], noteIds: readonly string[] = []): Clip {
  const ids = new Set(nodeIds);
  const notes = new Set(noteIds);
  return {
    nodes: flow.nodes.filter((n) => ids.has(n.id)),
    edges: flow.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
    notes: flow.notes.filter((n) => notes.has(n.id)),
  };
}

/** Every string inside a config value, references renamed. */
export function renameIn(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return renameReferences(value, renamed);
  if (Array.isArray(value)) return value.map((item) => renameIn(item, renamed));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renameIn(item, renamed)]));
  }
  return value;
}

/**
 * The change that pastes a clip into a flow: every node gets a free id,
 * references and edges between pasted nodes follow their new ids, and
 * references to nodes outside the clip are kept as they were.
 */
export function pasteChanges(
  flow: Flow,
  clip: Clip,
): { changes: ChangeSetInput; nodeIds: string[]; noteIds: string[] } {
  const usedNodes = new Set(flow.nodes.map((n) => n.id));
  const renamed = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = freeNodeId(usedNodes, node.type);
    usedNodes.add(id);
    renamed.set(node.id, id);
  }
  const nodes = clip.nodes.map((node) => ({
    ...node,
    id: renamed.get(node.id) as string,
    config: renameIn(node.config, renamed) as Record<string, unknown>,
    position: { x: node.position.x + PASTE_OFFSET, y: node.position.y + PASTE_OFFSET },
  }));
  const usedEdges = new Set(flow.edges.map((e) => e.id));
  const edges = clip.edges.flatMap((edge) => {
    const source = renamed.get(edge.source);
    const target = renamed.get(edge.target);
    if (source === undefined || target === undefined) return [];
    const id = newItemId(usedEdges, 'e');
    usedEdges.add(id);
    return [{ ...edge, id, source, target }];
  });
  const usedNotes = new Set(flow.notes.map((n) => n.id));
  const notes = (clip.notes ?? []).map((note) => {
    const id = newItemId(usedNotes, 'note');
    usedNotes.add(id);
    return { ...note, id, position: { x: note.position.x + PASTE_OFFSET, y: note.position.y + PASTE_OFFSET } };
  });
  return {
    changes: {
      addNodes: nodes,
      addEdges: edges,
      ...(notes.length > 0 ? { flow: { notes: [...flow.notes, ...notes] } } : {}),
    },
    nodeIds: nodes.map((n) => n.id),
    noteIds: notes.map((n) => n.id),
  };
}
