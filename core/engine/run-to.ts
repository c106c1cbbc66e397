import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import { neededBy } from '../model/run-to';

/**
 * The nodes a run to `nodeId` runs, by index (neededBy): the others are
 * skipped, what follows it included. Throws NODE_NOT_FOUND.
 */
export function planRunTo(flow: Flow, nodeId: string): ReadonlySet<number> {
  const needed = neededBy(flow, nodeId);
  if (!needed) throw new FlowbenchError('NODE_NOT_FOUND', `flow "${flow.name}" has no node "${nodeId}"`, { nodeId });
  return new Set(flow.nodes.flatMap((n, index) => (needed.has(n.id) ? [index] : [])));
}
