import type { Flow } from '../../../core/model/flow';
import { buildAdjacency, isUpstream } from '../../../core/model/graph';
import { nodeRegistry } from '../../../core/nodes/registry';
import type { ReferenceOption } from './template-editor';

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
  for (const node of flow.nodes) {
    if (node.id === nodeId || !isUpstream(adjacency, node.id, nodeId)) continue;
    const definition = nodeRegistry.get(node.type);
    options.push({ label: `nodes.${node.id}.output`, detail: `${definition?.label ?? node.type} ${node.label}` });
    if (definition?.outputs.some((p) => p.kind === 'error'))
      options.push({ label: `nodes.${node.id}.error`, detail: `error of ${node.label || node.id}` });
  }
  return options;
}
