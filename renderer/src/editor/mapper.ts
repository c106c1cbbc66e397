import type { Edge } from '@xyflow/react';
import type { Flow, FlowEdge } from '../../../core/model/flow';
import type { Problem } from '../../../core/model/problems';
import { nodeRegistry } from '../../../core/nodes/registry';
import type { Note } from '../../../core/model/notes';
import { nodeClassName, rfType, type FlowRfNode } from './node-view';
import { noteRfId } from './note-ids';
import type { NoteRfNode } from './note-view';

/** What the canvas draws: the flow's nodes and its sticky notes. */
export type CanvasNode = FlowRfNode | NoteRfNode;

export const isNoteNode = (node: CanvasNode): node is NoteRfNode => node.type === 'note';

/**
 * The previous array itself when nothing in it changed: React Flow hands every
 * new array to its store, which asks each node's subscription again.
 */
function reuse<T>(previous: readonly T[], next: T[]): T[] {
  if (previous.length !== next.length) return next;
  for (let i = 0; i < next.length; i++) if (previous[i] !== next[i]) return next;
  return previous as T[];
}

/**
 * The size React Flow has measured a node at, which may not have reached the
 * canvas's nodes yet (its `dimensions` change comes a render later).
 */
export type MeasuredOf = (id: string) => { width?: number; height?: number } | undefined;

/**
 * `measured` for a node object made again. One made without it while React
 * Flow had measured the node (a card just dropped, whose problem count changed
 * before its size reached the canvas) made React Flow forget the ports it had
 * measured, and then take the size back without them: nothing could be
 * connected to that node until it changed size (one CI run in five, under load).
 */
const measuredOrNot = (measured: ReturnType<MeasuredOf>) =>
  measured?.width !== undefined && measured.height !== undefined
    ? { measured: { width: measured.width, height: measured.height } }
    : {};

/**
 * The one mapper between the flow model and React Flow. Unchanged nodes keep
 * their React Flow object, so a change to one node re-renders one node. Notes
 * come first, so they are drawn under the nodes.
 */
export function toRfNodes(
  flow: Flow,
  previous: readonly CanvasNode[],
  selected: ReadonlySet<string>,
  problems: readonly Problem[],
  measuredOf: MeasuredOf = () => undefined,
): CanvasNode[] {
  const before = new Map(previous.map((n) => [n.id, n]));
  const notes = flow.notes.map((note) => toRfNote(note, before.get(noteRfId(note.id)), selected));
  const errorCounts = countByNode(problems, 'error');
  // A deactivated or pinned card says so itself: those warnings are for the Problems tab and publishing.
  const warningCounts = countByNode(
    problems.filter((p) => p.code !== 'DEACTIVATED_NODE' && p.code !== 'PINNED_OUTPUT'),
    'warning',
  );
  const parameters = flow.parameters.map((p) => p.name);
  const nodes = flow.nodes.map((node): FlowRfNode => {
    // A note's canvas id has a colon, which no node id has: what is found under a node's id is a node.
    const old = before.get(node.id) as FlowRfNode | undefined;
    const problemCount = errorCounts.get(node.id) ?? 0;
    const warningCount = warningCounts.get(node.id) ?? 0;
    const isSelected = selected.has(node.id);
    if (
      old &&
      old.data.node === node &&
      old.selected === isSelected &&
      old.data.problemCount === problemCount &&
      old.data.warningCount === warningCount &&
      (!nodeRegistry.get(node.type)?.showsParameters || old.data.parameters.join() === parameters.join())
    ) {
      return old;
    }
    return {
      id: node.id,
      type: rfType(node.type),
      position: node.position,
      selected: isSelected,
      className: nodeClassName(node, problemCount, warningCount),
      data: { node, problemCount, warningCount, parameters },
      ...measuredOrNot(old?.measured ?? measuredOf(node.id)),
      // Not measured with its ports yet: the ports it opened with (see declareOpening).
      ...(old?.handles ? { handles: old.handles } : {}),
    };
  });
  return reuse(previous, notes.length > 0 ? [...notes, ...nodes] : nodes);
}

/** A note as React Flow draws it: its box is its own, so React Flow never waits to measure it. */
function toRfNote(note: Note, old: CanvasNode | undefined, selected: ReadonlySet<string>): NoteRfNode {
  const id = noteRfId(note.id);
  const isSelected = selected.has(id);
  if (old && isNoteNode(old) && old.data.note === note && old.selected === isSelected) return old;
  return {
    id,
    type: 'note',
    position: note.position,
    width: note.width,
    height: note.height,
    selected: isSelected,
    // Under every node and edge, selected or not: React Flow lifts a selected node by 1,000.
    zIndex: -1001,
    className: `fb-note note-${note.color}`,
    data: { note },
  };
}

/** How many problems of one severity each node has. */
function countByNode(problems: readonly Problem[], severity: Problem['severity']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of problems) {
    if (problem.nodeId && problem.severity === severity)
      counts.set(problem.nodeId, (counts.get(problem.nodeId) ?? 0) + 1);
  }
  return counts;
}

/** Edges as React Flow draws them; `carried` are the ones a run carried data along (marked). */
export function toRfEdges(
  flow: Flow,
  previous: readonly Edge[],
  selected: ReadonlySet<string>,
  carried: ReadonlySet<string> = NONE,
): Edge[] {
  const before = new Map(previous.map((e) => [e.id, e]));
  const next = flow.edges.map((edge: FlowEdge): Edge => {
    const old = before.get(edge.id);
    const isSelected = selected.has(edge.id);
    const className = edgeClass(edge, carried.has(edge.id));
    if (
      old &&
      old.source === edge.source &&
      old.target === edge.target &&
      old.sourceHandle === edge.sourcePort &&
      old.selected === isSelected &&
      old.className === className &&
      old.label === loopLabel(edge)
    )
      return old;
    const label = loopLabel(edge);
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourcePort,
      targetHandle: edge.targetPort,
      selected: isSelected,
      ...(className ? { className } : {}),
      ...(label ? { label, data: { isLoop: true } } : {}),
    };
  });
  return reuse(previous, next);
}

const NONE: ReadonlySet<string> = new Set();

/** A loop edge says so on the canvas, with its limit. */
const loopLabel = (edge: FlowEdge): string | undefined =>
  edge.loop ? `↻ loop, ≤ ${edge.loop.maxIterations} passes` : undefined;

function edgeClass(edge: FlowEdge, isCarried: boolean): string | undefined {
  const kind = edge.sourcePort === 'error' ? 'edge-error' : edge.sourcePort === 'false' ? 'edge-false' : '';
  const classes = [kind, edge.loop ? 'edge-loop' : '', isCarried ? 'edge-carried' : ''].filter(Boolean).join(' ');
  return classes || undefined;
}
