import type { ChangeSetInput } from '../model/change-set';
import type { Flow, FlowNode } from '../model/flow';
import { nodeRegistry } from '../nodes/registry';

/** A run starts at the input node and returns the output node's values: those two always run. */
export function canDeactivate(node: Pick<FlowNode, 'type'>): boolean {
  const definition = nodeRegistry.get(node.type);
  return definition !== undefined && !definition.isEntry && !definition.isResult;
}

/** A node whose output can be pinned: the same nodes, for the same reason. */
export const canPin = canDeactivate;

/**
 * The change that deactivates the nodes `ids` names, or activates them again
 * when every one is deactivated already (n8n's D on a selection). Nodes that
 * cannot be deactivated are left as they are; undefined when none can.
 */
export function toggleDeactivatedChange(flow: Flow, ids: readonly string[]): ChangeSetInput | undefined {
  const chosen = new Set(ids);
  const nodes = flow.nodes.filter((n) => chosen.has(n.id) && canDeactivate(n));
  if (nodes.length === 0) return undefined;
  const disabled = nodes.every((n) => n.disabled) ? null : true;
  return {
    updateNodes: nodes.filter((n) => (n.disabled ?? null) !== disabled).map((n) => ({ id: n.id, disabled })),
  };
}
