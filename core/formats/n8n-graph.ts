import type { Converted, N8nNode } from './n8n-model';
import { asString, isRecord, type ImportProblem } from './shared';

/**
 * The graph of an n8n workflow: its connections (keyed by node name, each
 * output a list of targets) as links, then as Flowbench's edges, and the
 * output nodes a flow needs where n8n returned the last node's item.
 */

/** Nodes that hand their item on and do nothing else: left out, what went into them going on past them. */
export const PASS_THROUGH = new Set(['n8n-nodes-base.noOp']);

export interface Link {
  from: string;
  type: string;
  output: number;
  to: string;
  /** The input of `to` it goes into (a Merge's input 2 is 1). */
  input: number;
}

export function linksOf(connections: Record<string, unknown>, problems: ImportProblem[], known: Set<string>): Link[] {
  const links: Link[] = [];
  for (const [from, byType] of Object.entries(connections)) {
    if (!isRecord(byType)) continue;
    for (const [type, outputs] of Object.entries(byType)) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((targets, output) => {
        for (const target of Array.isArray(targets) ? targets.filter(isRecord) : []) {
          const to = asString(target.node);
          const input = typeof target.index === 'number' ? target.index : 0;
          if (known.has(from) && known.has(to)) links.push({ from, type, output, to, input });
          else
            problems.push({
              code: 'IMPORT_PROBLEM',
              source: `connections[${JSON.stringify(from)}].${type}[${output}]`,
              message: `a connection from "${from}" to "${to}" names a node the workflow does not have; it is left out`,
            });
        }
      });
    }
  }
  return links;
}

/** Main connections as edges: an output's port by its index; a pass-through node's outputs lead on from what feeds it. */
export function edgesFrom(
  links: Link[],
  byName: Map<string, N8nNode>,
  ids: Map<string, string>,
  converted: Map<string, Converted>,
  followers: Map<string, Map<string, string>>,
  problems: ImportProblem[],
): Record<string, unknown>[] {
  const main = links.filter((l) => l.type === 'main');
  const beyond = (name: string, seen = new Set<string>()): string[] => {
    const node = byName.get(name);
    if (!node || !PASS_THROUGH.has(node.type)) return ids.has(name) ? [name] : [];
    if (seen.has(name)) return [];
    seen.add(name);
    return main.filter((l) => l.from === name).flatMap((l) => beyond(l.to, seen));
  };
  const edges: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const edge = (source: string, sourcePort: string, target: string) => {
    const key = `${source}:${sourcePort}>${target}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push({ id: `e${edges.length + 1}`, source, sourcePort, target, targetPort: 'in' });
  };
  // Between a node and the followers it takes (a Switch's chain of rules).
  for (const [name, result] of converted) {
    const own = followers.get(name);
    for (const inner of result.inner ?? []) {
      const from = inner.from === undefined ? ids.get(name) : own?.get(inner.from);
      const to = own?.get(inner.to);
      if (from && to) edge(from, inner.port, to);
    }
  }
  for (const link of main) {
    const result = converted.get(link.from);
    const own = ids.get(link.from);
    if (!result || !own) continue;
    const outputs = result.outputs ?? (result.ports ?? ['out']).map((port) => ({ port, from: undefined }));
    const node = byName.get(link.from)!;
    if (result.type === 'output') {
      // n8n's Respond to Webhook answers and goes on; a Flowbench run ends at its output node.
      problems.push({
        code: 'IMPORT_PROBLEM',
        nodeId: own,
        source: `connections[${JSON.stringify(link.from)}].main[${link.output}]`,
        message: `n8n node "${link.from}" goes on to "${link.to}" after it answers; a Flowbench run ends where it answers, so that connection is left out: move what comes after it before it`,
      });
      continue;
    }
    const out = outputs[link.output];
    const source = out?.from === undefined ? own : followers.get(link.from)?.get(out.from);
    const port =
      out?.port ?? (node.raw.onError === 'continueErrorOutput' && link.output === outputs.length ? 'error' : undefined);
    if (
      !source ||
      !port ||
      (port === 'error' && !['llm', 'agent', 'http', 'code', 'flow', 'mcp_tool'].includes(result.type))
    ) {
      problems.push({
        code: 'IMPORT_PROBLEM',
        nodeId: own,
        source: `connections[${JSON.stringify(link.from)}].main[${link.output}]`,
        message: `n8n node "${link.from}": its output ${link.output + 1} has no Flowbench port; its connections are left out`,
      });
      continue;
    }
    for (const target of beyond(link.to)) {
      if (converted.get(target)?.type === 'input') {
        // A trigger became the input node, which starts a run and has no input port.
        problems.push({
          code: 'IMPORT_PROBLEM',
          nodeId: own,
          source: `connections[${JSON.stringify(link.from)}].main[${link.output}]`,
          message: `n8n node "${link.from}" is connected into the trigger "${target}", which starts a run and takes nothing in: that connection is left out`,
        });
        continue;
      }
      edge(source, port, ids.get(target) as string);
    }
  }
  return edges;
}

/**
 * n8n returns the last node's item; a Flowbench flow returns what its output
 * node says. Unless a Respond to Webhook node became one, each node that ends
 * a branch gets an output node returning its output (said).
 */
export function addResults(
  nodes: Record<string, unknown>[],
  edges: Record<string, unknown>[],
  converted: Map<string, Converted>,
  ids: Map<string, string>,
  main: N8nNode[],
  makeId: (wanted: string) => string,
  problems: ImportProblem[],
): void {
  if ([...converted.values()].some((c) => c.type === 'output')) return;
  const leaves = main.filter((n) => {
    const result = converted.get(n.name);
    const id = ids.get(n.name);
    const type = result?.type;
    return (
      !result?.endsRun &&
      type !== 'input' &&
      type !== 'condition' &&
      !edges.some((e) => e.source === id && e.sourcePort === 'out')
    );
  });
  // Not by count alone: a loop connection left out (see n8n-loops.ts) leaves its id's number behind.
  const edgeIds = new Set(edges.map((e) => e.id));
  const freeEdgeId = () => {
    let n = edges.length + 1;
    while (edgeIds.has(`e${n}`)) n++;
    edgeIds.add(`e${n}`);
    return `e${n}`;
  };
  for (const leaf of leaves) {
    const id = ids.get(leaf.name) as string;
    const at = nodes.find((n) => n.id === id)?.position as { x: number; y: number };
    const result = makeId(leaves.length === 1 ? 'result' : `${id}_result`);
    nodes.push({
      id: result,
      type: 'output',
      label: leaves.length === 1 ? 'Result' : `Result of ${leaf.name}`,
      position: { x: at.x + 320, y: at.y },
      config: { mode: 'return_values', returnValues: [{ id: 'result', text: `{{nodes.${id}.output}}` }] },
    });
    edges.push({ id: freeEdgeId(), source: id, sourcePort: 'out', target: result, targetPort: 'in' });
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      nodeId: result,
      source: leaf.source,
      message: `n8n returned the item of the last node; the flow returns what "${leaf.name}" gives, from the output node ${result} added after it`,
    });
  }
}
