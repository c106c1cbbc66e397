import { FlowbenchError } from './errors';
import type { Flow, FlowNode } from './flow';
import type { NodeCatalogue } from './node-catalogue';
import type { SecretReader } from './secrets';
import { templateReferences } from './template';

/** One `{{secrets.name}}` a node's template field reads. */
export interface SecretReference {
  field: string;
  name: string;
}

/** The secrets a node reads, by field, as often as written; none for a node type that reads no secrets. */
export function secretReferences(node: FlowNode, registry: NodeCatalogue): SecretReference[] {
  const definition = registry.get(node.type);
  if (!definition?.readsSecrets) return [];
  return definition
    .templates(node.config)
    .flatMap(({ field, text }) =>
      templateReferences(text).flatMap((ref) => (ref.scope === 'secrets' ? [{ field, name: ref.name }] : [])),
    );
}

/**
 * The secrets a flow's nodes read (`{{secrets.name}}`), each once, in the
 * order they first appear; only the nodes in `only` when given (a run to a node).
 */
export function secretsReadBy(
  flow: Pick<Flow, 'nodes'>,
  registry: NodeCatalogue,
  only?: ReadonlySet<string>,
): string[] {
  const names = new Set<string>();
  for (const node of flow.nodes) {
    if (only && !only.has(node.id)) continue;
    for (const { name } of secretReferences(node, registry)) names.add(name);
  }
  return [...names];
}

/**
 * The values of the secrets a run reads, read once before it starts. One not
 * set here is SECRET_MISSING before any node runs: a request sent with an
 * empty Authorization header fails later and says less.
 */
export function readSecrets(
  flowName: string,
  names: readonly string[],
  reader: SecretReader | undefined,
): Map<string, string> {
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const name of names) {
    const value = reader?.read(name);
    if (value === undefined) missing.push(name);
    else values.set(name, value);
  }
  if (missing.length > 0) {
    const listed = missing.map((name) => `{{secrets.${name}}}`).join(', ');
    const where = reader
      ? `set ${missing.length === 1 ? 'it' : 'them'} on the Secrets page or with \`flowbench secrets set <name>\``
      : 'secrets cannot be read where this flow runs';
    throw new FlowbenchError(
      'SECRET_MISSING',
      `flow "${flowName}" reads ${listed}, which ${missing.length === 1 ? 'is' : 'are'} not set here: ${where}`,
      { names: missing },
    );
  }
  return values;
}
