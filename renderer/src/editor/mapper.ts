import type { Edge } from '@xyflow/react';
import type { Flow, FlowEdge } from '../../../core/model/flow';
import type { Problem } from '../../../core/model/problems';
import type { StepStatus } from '../../../core/model/run';
import { rfType, type FlowRfNode } from './node-view';

/**
 * The one mapper between the flow model and React Flow. Unchanged nodes keep
 * their React Flow object, so a change to one node re-renders one node.
 */
export function toRfNodes(
  flow: Flow,
  previous: readonly FlowRfNode[],
  selected: ReadonlySet<string>,
  problems: readonly Problem[],
  status: Readonly<Record<string, StepStatus>>,
): FlowRfNode[] {
  const before = new Map(previous.map((n) => [n.id, n]));
  const problemCounts = new Map<string, number>();
  for (const problem of problems) {
    if (problem.nodeId && problem.severity === 'error')
      problemCounts.set(problem.nodeId, (problemCounts.get(problem.nodeId) ?? 0) + 1);
  }
  const parameters = flow.parameters.map((p) => p.name);
  return flow.nodes.map((node) => {
    const old = before.get(node.id);
    const problemCount = problemCounts.get(node.id) ?? 0;
    const isSelected = selected.has(node.id);
    const nodeStatus = status[node.id];
    if (
      old &&
      old.data.node === node &&
      old.selected === isSelected &&
      old.data.problemCount === problemCount &&
      old.data.status === nodeStatus &&
      (node.type !== 'input' || old.data.parameters.join() === parameters.join())
    ) {
      return old;
    }
    return {
      id: node.id,
      type: rfType(node.type),
      position: node.position,
      selected: isSelected,
      data: { node, problemCount, status: nodeStatus, parameters },
      ...(old?.measured ? { measured: old.measured } : {}),
    };
  });
}

export function toRfEdges(flow: Flow, previous: readonly Edge[], selected: ReadonlySet<string>): Edge[] {
  const before = new Map(previous.map((e) => [e.id, e]));
  return flow.edges.map((edge: FlowEdge) => {
    const old = before.get(edge.id);
    const isSelected = selected.has(edge.id);
    if (
      old &&
      old.source === edge.source &&
      old.target === edge.target &&
      old.sourceHandle === edge.sourcePort &&
      old.selected === isSelected
    )
      return old;
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourcePort,
      targetHandle: edge.targetPort,
      selected: isSelected,
      className: edge.sourcePort === 'error' ? 'edge-error' : edge.sourcePort === 'false' ? 'edge-false' : undefined,
    };
  });
}
