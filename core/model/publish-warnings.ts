import type { Flow } from './flow';
import type { NodeCatalogue } from './node-catalogue';

/** Something an MCP client would suffer from in a published flow, with where it is. */
export interface PublishWarning {
  message: string;
  nodeId?: string;
}

/**
 * What to tell a person before publishing: a flow can be valid and still
 * useless to a client (no tool description for its model to read, an empty
 * prompt, an empty return value). These never block publishing; the editor
 * asks, and `flowbench publish` prints them.
 */
export function publishWarnings(flow: Flow, catalogue: NodeCatalogue): PublishWarning[] {
  const warnings: PublishWarning[] = [];
  if ((flow.tool.description || flow.description).trim() === '') {
    warnings.push({
      message: "the tool has no description: a client's model cannot tell what it does or when to call it",
    });
  }
  for (const node of flow.nodes) {
    if (node.disabled)
      warnings.push({
        message: `node "${node.label || node.id}" is deactivated: clients' calls pass over it`,
        nodeId: node.id,
      });
    if (node.pin)
      warnings.push({
        message: `node "${node.label || node.id}" has a pinned output: clients' calls run the node, not the pin`,
        nodeId: node.id,
      });
    const spec = catalogue.get(node.type);
    const parsed = spec?.publishWarnings && spec.configSchema.safeParse(node.config);
    if (!spec?.publishWarnings || !parsed?.success) continue;
    for (const message of spec.publishWarnings(parsed.data))
      warnings.push({ message: `node "${node.label || node.id}": ${message}`, nodeId: node.id });
  }
  return warnings;
}
