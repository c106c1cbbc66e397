import type { ChangeSetInput } from '../model/change-set';
import type { Flow, FlowEdge, FlowNode, Position } from '../model/flow';
import { buildAdjacency, reachable, shortestPath, wouldCreateCycle } from '../model/graph';
import { NODE_WIDTH } from './layout';
import type { NodeDefinition } from '../nodes/define-node';
import { nodeRegistry } from '../nodes/registry';
import { freeNodeId, newItemId } from './ids';
import { freeSpotNear } from './placement';

/** The change that adds a node of a type with its defaults, and the new node's id. */
export function addNodeChange(
  flow: Flow,
  definition: Pick<NodeDefinition, 'type' | 'version' | 'label' | 'defaults'>,
  position: Position,
): { changes: ChangeSetInput; nodeId: string } {
  const node = newNode(flow, definition, position);
  return { changes: { addNodes: [node] }, nodeId: node.id };
}

/** A node of a type with its defaults, under an id the flow does not use. */
function newNode(
  flow: Flow,
  definition: Pick<NodeDefinition, 'type' | 'version' | 'label' | 'defaults'>,
  position: Position,
): FlowNode {
  return {
    id: freeNodeId(new Set(flow.nodes.map((n) => n.id)), definition.type),
    type: definition.type,
    version: definition.version,
    label: definition.label,
    position,
    config: definition.defaults(),
  };
}

/** The passes a loop edge drawn in the editor allows until the person changes it. */
export const DEFAULT_LOOP_PASSES = 3;

/** The flow's edges without its loop edges: the order one pass runs in. */
const forwardOf = (flow: Flow) =>
  buildAdjacency(
    flow.nodes.map((n) => n.id),
    flow.edges.filter((e) => !e.loop),
  );

/** True when an edge from source to target goes back: the target already leads to the source. */
export const goesBack = (flow: Flow, source: string, target: string): boolean =>
  wouldCreateCycle(forwardOf(flow), source, target);

/**
 * Why an edge from source to target is refused, in words for the person
 * dragging it; undefined when it is allowed. An edge that goes back becomes a
 * loop edge (see connectChange), except from a node that already starts one.
 */
export function connectionRefusal(flow: Flow, source: string, target: string): string | undefined {
  const name = (id: string) => {
    const node = flow.nodes.find((n) => n.id === id);
    return node?.label ? `"${node.label}"` : id;
  };
  if (source === target) return `${name(source)} cannot feed itself`;
  if (!goesBack(flow, source, target)) return undefined;
  const loop = flow.edges.find((e) => e.source === source && e.loop);
  if (!loop) return undefined;
  const path = shortestPath(forwardOf(flow), target, source) ?? [target, source];
  return `it would go back (${path.map(name).join(' → ')} runs the other way), and ${name(source)} already loops back to ${name(loop.target)}; a node starts one loop`;
}

/** False when an edge from source to target would join a node to itself or start a second loop from one node. */
export function canConnect(flow: Flow, source: string, target: string): boolean {
  return connectionRefusal(flow, source, target) === undefined;
}

export type ConnectResult =
  /** `isLoop`: the edge goes back, so it is a loop edge with DEFAULT_LOOP_PASSES. */
  | { kind: 'change'; changes: ChangeSetInput; isLoop: boolean }
  /** The same ports are already joined: nothing to do. */
  | { kind: 'exists' }
  /** A self-join or a second loop from one node, with why in words. */
  | { kind: 'refused'; reason: string };

/** The change that joins two ports, or why there is none. */
export function connectChange(
  flow: Flow,
  ends: { source: string; sourcePort: string; target: string; targetPort: string },
): ConnectResult {
  const reason = connectionRefusal(flow, ends.source, ends.target);
  if (reason) return { kind: 'refused', reason };
  const exists = flow.edges.some(
    (e) =>
      e.source === ends.source &&
      e.sourcePort === ends.sourcePort &&
      e.target === ends.target &&
      e.targetPort === ends.targetPort,
  );
  if (exists) return { kind: 'exists' };
  const id = newItemId(new Set(flow.edges.map((e) => e.id)), 'e');
  if (goesBack(flow, ends.source, ends.target)) {
    // A loop carries no new data forward: the target reads what the source left on the last pass.
    return {
      kind: 'change',
      isLoop: true,
      changes: { addEdges: [{ id, ...ends, loop: { maxIterations: DEFAULT_LOOP_PASSES } }] },
    };
  }
  const filled = filledTarget(flow, ends);
  return {
    kind: 'change',
    isLoop: false,
    changes: { addEdges: [{ id, ...ends }], ...(filled ? { updateNodes: [filled] } : {}) },
  };
}

/** The change that sets a loop edge's limit: the edge replaced by one with the new limit, in one edit. */
export function loopLimitChange(flow: Flow, edgeId: string, maxIterations: number): ChangeSetInput | undefined {
  const edge = flow.edges.find((e) => e.id === edgeId);
  if (!edge?.loop || edge.loop.maxIterations === maxIterations) return undefined;
  return { removeEdges: [edgeId], addEdges: [{ ...edge, loop: { maxIterations } }] };
}

/**
 * The target's config with the new upstream node's output filled into its
 * empty text, as people expect a connection to carry data. Only for data
 * ports of nodes other than the flow's entry (its output is every input at once).
 */
function filledTarget(
  flow: Flow,
  ends: { source: string; sourcePort: string; target: string },
): { id: string; config: Record<string, unknown> } | undefined {
  const source = flow.nodes.find((n) => n.id === ends.source);
  const target = flow.nodes.find((n) => n.id === ends.target);
  const sourceSpec = source && nodeRegistry.get(source.type);
  const targetSpec = target && nodeRegistry.get(target.type);
  if (!source || !target || !sourceSpec || !targetSpec?.fillEmptyText || sourceSpec.isEntry) return undefined;
  if (sourceSpec.outputs.find((p) => p.id === ends.sourcePort)?.kind !== 'data') return undefined;
  const parsed = targetSpec.configSchema.safeParse(target.config);
  if (!parsed.success) return undefined;
  const config = targetSpec.fillEmptyText(parsed.data, `{{nodes.${source.id}.output}}`);
  return config ? { id: target.id, config } : undefined;
}

/** A port a connection was dragged from: the node, the port, and whether it is an output (`source`) or an input. */
export interface DraggedPort {
  nodeId: string;
  port: string;
  side: 'source' | 'target';
}

/** The port a node of a type takes a connection into, and the one its data goes on from. */
const inputPort = (definition: NodeDefinition) => definition.inputs[0]?.id;
const dataOutput = (definition: NodeDefinition) => definition.outputs.find((p) => p.kind === 'data')?.id;

/**
 * The types a connection dragged off `from` and let go on empty canvas may
 * add, already joined to it: those with an input for an output dragged, those
 * with a data output for an input dragged.
 */
export function typesToJoin(from: Pick<DraggedPort, 'side'>): NodeDefinition[] {
  const port = from.side === 'source' ? inputPort : dataOutput;
  return nodeRegistry.all().filter((d) => port(d) !== undefined);
}

/**
 * `node`, being added to `flow`, joined by an edge between `ends`: the edges,
 * the node with its empty text filled as drawing the edge would fill it, and
 * the updates of other nodes (one on the far side filled the same way).
 * Undefined when the join is refused or exists.
 */
function joinAdded(
  flow: Flow,
  node: FlowNode,
  ends: { source: string; sourcePort: string; target: string; targetPort: string },
): { node: FlowNode; edges: FlowEdge[]; updates: NonNullable<ChangeSetInput['updateNodes']> } | undefined {
  const joined = connectChange({ ...flow, nodes: [...flow.nodes, node] }, ends);
  if (joined.kind !== 'change' || !joined.changes.addEdges) return undefined;
  const updates = joined.changes.updateNodes ?? [];
  const filled = updates.find((u) => u.id === node.id)?.config;
  return {
    node: filled ? { ...node, config: filled } : node,
    edges: joined.changes.addEdges as FlowEdge[],
    updates: updates.filter((u) => u.id !== node.id),
  };
}

/**
 * The change that adds a node where a connection dragged off a port was let
 * go, joined to that port, in one edit (one Undo takes both back), as n8n,
 * Rivet and ComfyUI add a node from a dropped connection. The join fills the
 * new node's empty text as drawing it would. Undefined when the type has no
 * port to join there, or the node to join is no longer in the flow.
 */
export function addJoinedNodeChange(
  flow: Flow,
  definition: NodeDefinition,
  position: Position,
  from: DraggedPort,
): { changes: ChangeSetInput; nodeId: string } | undefined {
  // Deleted while the menu that adds it was open: an edge to it was refused by the host, new node and all.
  if (!flow.nodes.some((n) => n.id === from.nodeId)) return undefined;
  const node = newNode(flow, definition, position);
  const newPort = from.side === 'source' ? inputPort(definition) : dataOutput(definition);
  if (!newPort) return undefined;
  const ends =
    from.side === 'source'
      ? { source: from.nodeId, sourcePort: from.port, target: node.id, targetPort: newPort }
      : { source: node.id, sourcePort: newPort, target: from.nodeId, targetPort: from.port };
  const joined = joinAdded(flow, node, ends);
  if (!joined) return undefined;
  return {
    nodeId: node.id,
    changes: {
      addNodes: [joined.node],
      addEdges: joined.edges,
      ...(joined.updates.length > 0 ? { updateNodes: joined.updates } : {}),
    },
  };
}

/**
 * The port a node added after `node` joins (N with it selected, as n8n's
 * Tab adds the next step): its data output, else its first branch (a
 * condition's `true`); none for a node nothing can follow (an output, a stop).
 */
export function portAfter(node: Pick<FlowNode, 'id' | 'type'>): DraggedPort | undefined {
  const definition = nodeRegistry.get(node.type);
  const port = definition && (dataOutput(definition) ?? definition.outputs.find((p) => p.kind === 'branch')?.id);
  return port === undefined ? undefined : { nodeId: node.id, port, side: 'source' };
}

/** The types a node put in the middle of an edge may be: one input to take the edge, a data output to go on. */
export function typesToInsert(): NodeDefinition[] {
  return nodeRegistry.all().filter((d) => inputPort(d) !== undefined && dataOutput(d) !== undefined);
}

/**
 * The change that puts a new node in the middle of an edge (n8n's + on a
 * connection): the edge gives way to one into the node's first input and
 * one out of its data output, the node goes in free space between the two
 * ends, and its empty text reads the node before it. In a loop edge the node
 * joins the loop as its last node (what a pass hands back, e.g. the review
 * summarised before the next draft): it goes after the loop's source and
 * under it, and the edge out of it is the loop edge, with the passes the old
 * one allowed. Undefined for
 * a type without both ports.
 */
export function insertNodeChange(
  flow: Flow,
  definition: NodeDefinition,
  edgeId: string,
): { changes: ChangeSetInput; nodeId: string } | undefined {
  const edge = flow.edges.find((e) => e.id === edgeId);
  const source = flow.nodes.find((n) => n.id === edge?.source);
  const target = flow.nodes.find((n) => n.id === edge?.target);
  const inPort = inputPort(definition);
  const outPort = dataOutput(definition);
  if (!edge || !source || !target || !inPort || !outPort) return undefined;
  const { loop } = edge;
  const moves = loop ? new Map<string, FlowNode>() : roomAfter(flow, source, target);
  const moved = flow.nodes.map((n) => moves.get(n.id) ?? n);
  // Into a loop: after its source and under it, so the edge into it runs forward and the loop back starts there.
  const start = loop
    ? {
        x: source.position.x + NODE_WIDTH + INSERT_GAP / 2,
        y: Math.max(source.position.y, target.position.y) + LOOP_INSERT_DROP,
      }
    : { x: source.position.x + NODE_WIDTH + INSERT_GAP, y: (source.position.y + target.position.y) / 2 };
  const node = newNode(flow, definition, freeSpotNear(moved, start));
  const others = flow.edges.filter((e) => e.id !== edgeId);
  const into = joinAdded({ ...flow, edges: others }, node, {
    source: edge.source,
    sourcePort: edge.sourcePort,
    target: node.id,
    targetPort: inPort,
  });
  if (!into) return undefined;
  const out = joinAdded({ ...flow, edges: [...others, ...into.edges] }, into.node, {
    source: node.id,
    sourcePort: outPort,
    target: edge.target,
    targetPort: edge.targetPort,
  });
  if (!out) return undefined;
  // Out of the node, the edge goes back as the old one did (connectChange made it a loop): its passes are kept.
  const outEdges = loop ? out.edges.map((e) => (e.loop ? { ...e, loop } : e)) : out.edges;
  // The node after keeps its text unless it was empty: then it reads the node put in.
  const updates = [...[...moves.values()].map((m) => ({ id: m.id, position: m.position })), ...out.updates];
  return {
    nodeId: node.id,
    changes: {
      addNodes: [out.node],
      removeEdges: [edgeId],
      addEdges: [...into.edges, ...outEdges],
      ...(updates.length > 0 ? { updateNodes: updates } : {}),
    },
  };
}

/** The space kept on each side of a node put into an edge: ELK's between layers (layout.ts). */
const INSERT_GAP = 80;
/** How far under its loop's ends a node put into a loop edge goes: under the cards, where the loop is drawn. */
const LOOP_INSERT_DROP = 160;

/**
 * Where the nodes from `target` on go so that a card fits between `source`
 * and `target` (n8n pushes the nodes after an inserted one along): each
 * node downstream of the target, the target too, moved right by what is
 * missing, by id; none when there is room already.
 */
function roomAfter(flow: Flow, source: FlowNode, target: FlowNode): Map<string, FlowNode> {
  const missing = source.position.x + NODE_WIDTH + INSERT_GAP + NODE_WIDTH + INSERT_GAP - target.position.x;
  if (missing <= 0) return new Map();
  // On the canvas's 20-px grid.
  const shift = Math.ceil(missing / 20) * 20;
  const forward = forwardOf(flow);
  const after = reachable([target.id], (id) => forward.outgoing.get(id));
  return new Map(
    flow.nodes
      .filter((n) => after.has(n.id) && n.position.x >= target.position.x)
      .map((n) => [n.id, { ...n, position: { x: n.position.x + shift, y: n.position.y } }]),
  );
}

/** The change that moves nodes, leaving out those already where they are; undefined when none moved. */
export function moveChange(
  flow: Flow,
  moves: readonly { id: string; position: Position }[],
): ChangeSetInput | undefined {
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const changed = moves.filter((m) => {
    const node = byId.get(m.id);
    return node !== undefined && (node.position.x !== m.position.x || node.position.y !== m.position.y);
  });
  return changed.length > 0 ? { updateNodes: changed.map((m) => ({ id: m.id, position: m.position })) } : undefined;
}
