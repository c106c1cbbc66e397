import type { FlowNode } from '../model/flow';
import { secretReferences } from '../model/flow-secrets';
import { parseNodeConfig } from '../model/node-config';
import { nodeRegistry } from '../nodes/registry';

/**
 * Each HTTP request node of a file (or of nodes pasted from another tool), as a problem to dismiss before the flow
 * runs or publishes: a file is data (docs/security.md), and running one must
 * not reach a URL its author chose before the person has seen it. Read from
 * the validated flow, so the secrets named are those the node would send
 * (its template fields, as runs and publishing read them).
 */
export function urlsCalled(
  nodes: readonly FlowNode[],
  author = "the file's author",
): { code: 'IMPORT_PROBLEM'; nodeId: string; source: string; message: string }[] {
  const definition = nodeRegistry.get('http');
  return nodes.flatMap((node) => {
    if (node.type !== 'http' || !definition) return [];
    // Its config with defaults filled in, as a run reads it (pasted nodes come as the converter made them).
    const parsed = parseNodeConfig(definition, node);
    const read = parsed.ok ? { ...node, config: parsed.config } : node;
    const config = read.config as { method?: string; url?: string };
    const secrets = parsed.ok ? [...new Set(secretReferences(read, nodeRegistry).map(({ name }) => name))] : [];
    const sending =
      secrets.length > 0 ? `, sending your secret${secrets.length === 1 ? '' : 's'} ${secrets.join(', ')},` : '';
    return [
      {
        code: 'IMPORT_PROBLEM' as const,
        nodeId: node.id,
        source: `node ${node.id}`,
        message: `calls ${`${config.method ?? 'GET'} ${config.url ?? ''}`.trim()}${sending} when it runs, as ${author} chose: dismiss this in the Problems tab (or \`flowbench dismiss\`) once you trust it`,
      },
    ];
  });
}
