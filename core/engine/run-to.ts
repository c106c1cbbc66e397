import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import { reachable } from '../model/graph';
import { incomingOf, type FlowPlan } from './flow-plan';

/**
 * The nodes a run to `nodeId` runs (n8n's Execute step, Langflow's run of one
 * component): it and every node it needs, by index; the others are skipped,
 * what follows it included. Throws NODE_NOT_FOUND.
 */
export function planRunTo(flow: Flow, plan: FlowPlan, nodeId: string): ReadonlySet<number> {
  const target = flow.nodes.findIndex((n) => n.id === nodeId);
  if (target < 0) throw new FlowbenchError('NODE_NOT_FOUND', `flow "${flow.name}" has no node "${nodeId}"`, { nodeId });
  const incoming = incomingOf(plan);
  return reachable([target], (i) => incoming[i] ?? []);
}
