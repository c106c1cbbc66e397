import type { Flow } from '../model/flow';
import { buildAdjacency, reachable } from '../model/graph';
import { nodeRegistry } from '../nodes/registry';

/** A reference a template may use, as the template editor offers it. */
export interface ReferenceOption {
  /** What goes between the braces, e.g. `inputs.topic` or `nodes.summarise.output`. */
  label: string;
  detail: string;
}

/** The references a node can use: the flow's parameters and the nodes upstream of it. */
export function referencesFor(flow: Flow, nodeId: string): ReferenceOption[] {
  const adjacency = buildAdjacency(
    flow.nodes.map((n) => n.id),
    flow.edges,
  );
  const options: ReferenceOption[] = flow.parameters.map((p) => ({
    label: `inputs.${p.name}`,
    detail: `${p.type} parameter`,
  }));
  // One walk back from the node, not one per other node: per node it was quadratic (seconds at 10,000 nodes).
  const upstream = reachable([nodeId], (id) => adjacency.incoming.get(id));
  for (const node of flow.nodes) {
    if (node.id === nodeId || !upstream.has(node.id)) continue;
    const definition = nodeRegistry.get(node.type);
    options.push({ label: `nodes.${node.id}.output`, detail: `${definition?.label ?? node.type} ${node.label}` });
    if (definition?.outputs.some((p) => p.kind === 'error'))
      options.push({ label: `nodes.${node.id}.error`, detail: `error of ${node.label || node.id}` });
  }
  return options;
}
