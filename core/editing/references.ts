import type { Flow } from '../model/flow';
import { buildAdjacency, type Adjacency } from '../model/graph';
import { nodeRegistry } from '../nodes/registry';
import { outputFields, templatePath, type KnownOutput } from './output-fields';

/** A reference a template may use, as the template editor offers it. */
export interface ReferenceOption {
  /** What goes between the braces, e.g. `inputs.topic` or `nodes.summarise.output`. */
  label: string;
  detail: string;
  /** A field inside a node's JSON output (completion offers it; the Insert chips do not). */
  isField?: boolean;
  /** How many edges back the node referred to is (1: joined straight to this one); none for parameters, secrets and the item. */
  hops?: number;
}

/**
 * The references a node can use: the flow's parameters, the nodes upstream of
 * it, the fields of their JSON outputs that are known (declared by their
 * config or by what they call, or `known`'s: what the run shown gave), and
 * for a node that reads secrets, the names of those kept (`secrets`).
 */
export function referencesFor(
  flow: Flow,
  nodeId: string,
  known: (nodeId: string) => KnownOutput = () => ({}),
  secrets: readonly string[] = [],
): ReferenceOption[] {
  const adjacency = buildAdjacency(
    flow.nodes.map((n) => n.id),
    flow.edges,
  );
  const options: ReferenceOption[] = flow.parameters.map((p) => ({
    label: `inputs.${p.name}`,
    detail: `${p.type} parameter`,
  }));
  const self = flow.nodes.find((n) => n.id === nodeId);
  if (self && nodeRegistry.get(self.type)?.readsSecrets) {
    for (const name of secrets)
      options.push({ label: `secrets.${name}`, detail: 'secret, sent as it is, recorded as •••' });
  }
  const forEach = self?.forEach;
  if (forEach) options.unshift({ label: 'item', detail: `the item of ${forEach.items || 'the list'} it runs for` });
  // One walk back from the node, not one per other node: per node it was quadratic (seconds at 10,000 nodes).
  const upstream = hopsBack(adjacency, nodeId);
  for (const node of flow.nodes) {
    const hops = upstream.get(node.id);
    if (node.id === nodeId || hops === undefined) continue;
    const definition = nodeRegistry.get(node.type);
    options.push({ label: `nodes.${node.id}.output`, detail: `${definition?.label ?? node.type} ${node.label}`, hops });
    for (const field of outputFields(node, known(node.id))) {
      options.push({
        label: `nodes.${node.id}.output${templatePath(field.path)}`,
        detail: field.detail,
        isField: true,
        hops,
      });
    }
    if (definition?.outputs.some((p) => p.kind === 'error'))
      options.push({ label: `nodes.${node.id}.error`, detail: `error of ${node.label || node.id}`, hops });
  }
  return options;
}

/** Each node upstream of `nodeId` (and itself, at 0), with the fewest edges back from it: a breadth-first walk. */
function hopsBack(adjacency: Adjacency, nodeId: string): Map<string, number> {
  const hops = new Map<string, number>([[nodeId, 0]]);
  const queue = [nodeId];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    const next = (hops.get(at) as number) + 1;
    for (const source of adjacency.incoming.get(at) ?? []) {
      if (hops.has(source)) continue;
      hops.set(source, next);
      queue.push(source);
    }
  }
  return hops;
}

/**
 * True when every node has the references it had in `before`: `after` is the
 * same flow with at most some nodes moved. A card let go in a 10,000-node
 * flow made the inspector work out its node's references again (4–18 ms in
 * the drop's frame) for a change that cannot alter them.
 */
export function sameReferences(before: Flow, after: Flow): boolean {
  if (before === after) return true;
  if (before.parameters !== after.parameters || before.edges !== after.edges) return false;
  if (before.nodes.length !== after.nodes.length) return false;
  for (let i = 0; i < before.nodes.length; i++) {
    const a = before.nodes[i] as Flow['nodes'][number];
    const b = after.nodes[i] as Flow['nodes'][number];
    if (a !== b && !movedOnly(a, b)) return false;
  }
  return true;
}

/** The same node, at most moved: every other field the very same value. */
function movedOnly(a: object, b: object): boolean {
  const before = a as Record<string, unknown>;
  const after = b as Record<string, unknown>;
  const keys = Object.keys(after);
  if (Object.keys(before).length !== keys.length) return false;
  return keys.every((key) => key === 'position' || before[key] === after[key]);
}
