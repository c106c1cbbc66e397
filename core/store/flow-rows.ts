import type { Flow, FlowEdge, FlowNode } from '../model/flow';
import type { edges, flows, nodes } from './schema';

type FlowRow = typeof flows.$inferSelect;
type NodeRow = typeof nodes.$inferSelect;
type EdgeRow = typeof edges.$inferSelect;

/** Maps rows to the domain model and back; the only place that knows both shapes. */
export function flowFromRows(row: FlowRow, nodeRows: readonly NodeRow[], edgeRows: readonly EdgeRow[]): Flow {
  return {
    schemaVersion: 1,
    id: row.id,
    name: row.name,
    description: row.description,
    tool: {
      name: row.toolName,
      description: row.toolDescription,
      whenToUse: row.whenToUse,
      whenNotToUse: row.whenNotToUse,
      enabled: row.toolEnabled,
      annotations: row.toolAnnotations,
      ...(row.toolIcon ? { icon: row.toolIcon } : {}),
    },
    parameters: row.parameters,
    nodes: nodeRows.map(nodeFromRow),
    edges: edgeRows.map(edgeFromRow),
    metadata: row.metadata as Flow['metadata'],
    tests: row.tests,
    testsGatePublish: row.testsGatePublish,
    memory: row.memory,
    notes: row.notes,
  };
}

export function nodeFromRow(row: NodeRow): FlowNode {
  return {
    id: row.id,
    type: row.type,
    version: row.version,
    label: row.label,
    position: { x: row.x, y: row.y },
    config: row.config,
    ...(row.maxAttempts !== null ? { maxAttempts: row.maxAttempts } : {}),
    ...(row.timeoutMs !== null ? { timeoutMs: row.timeoutMs } : {}),
    ...(row.onError !== null ? { onError: row.onError } : {}),
    ...(row.disabled ? { disabled: true as const } : {}),
    ...(row.pin !== null ? { pin: row.pin } : {}),
    ...(row.forEach !== null ? { forEach: row.forEach } : {}),
    ...(row.metadata !== null ? { metadata: row.metadata as FlowNode['metadata'] } : {}),
  };
}

export function edgeFromRow(row: EdgeRow): FlowEdge {
  return {
    id: row.id,
    source: row.source,
    sourcePort: row.sourcePort,
    target: row.target,
    targetPort: row.targetPort,
    ...(row.loopMaxIterations !== null ? { loop: { maxIterations: row.loopMaxIterations } } : {}),
    ...(row.metadata !== null ? { metadata: row.metadata as FlowEdge['metadata'] } : {}),
  };
}

export function flowFieldsToRow(flow: Flow, now: number): Omit<FlowRow, 'createdAt'> {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    toolName: flow.tool.name,
    toolDescription: flow.tool.description,
    whenToUse: flow.tool.whenToUse,
    whenNotToUse: flow.tool.whenNotToUse,
    toolEnabled: flow.tool.enabled,
    toolAnnotations: flow.tool.annotations,
    toolIcon: flow.tool.icon || null,
    parameters: flow.parameters,
    metadata: flow.metadata,
    tests: flow.tests,
    testsGatePublish: flow.testsGatePublish,
    memory: flow.memory,
    notes: flow.notes,
    updatedAt: now,
  };
}

export function nodeToRow(flowId: string, node: FlowNode, ord: number, now: number): NodeRow {
  return {
    flowId,
    id: node.id,
    ord,
    type: node.type,
    version: node.version,
    label: node.label,
    x: node.position.x,
    y: node.position.y,
    config: node.config,
    maxAttempts: node.maxAttempts ?? null,
    timeoutMs: node.timeoutMs ?? null,
    onError: node.onError ?? null,
    disabled: node.disabled ?? null,
    pin: node.pin ?? null,
    forEach: node.forEach ?? null,
    metadata: node.metadata ?? null,
    rev: 1,
    updatedAt: now,
  };
}

export function edgeToRow(flowId: string, edge: FlowEdge, ord: number): EdgeRow {
  const { loop, metadata, ...ends } = edge;
  return { flowId, ord, ...ends, loopMaxIterations: loop?.maxIterations ?? null, metadata: metadata ?? null };
}
