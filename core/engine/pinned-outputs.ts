import type { Flow } from '../model/flow';
import { schemaProblems } from '../model/json-schema';
import type { Problem } from '../model/problems';
import type { NodeRegistry } from '../nodes/registry';

/**
 * The pins a run started by a person would take that are not what their node
 * says it gives (an LLM's JSON schema, an ask node's fields): a pin written by
 * hand, or kept from before the schema changed. Handing such a value on would
 * be a run no model could give, so the run is refused, naming the node, as
 * any other problem. Checked only where a run takes pins, and only for nodes
 * that declare a schema (the JSON Schema checker loads then).
 */
export async function pinnedOutputProblems(flow: Flow, registry: NodeRegistry): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const node of flow.nodes) {
    // A deactivated node passes on what came into it: its pin is not taken.
    if (!node.pin || node.disabled) continue;
    const schema = registry.outputSchema(node);
    if (!schema) continue;
    let found: string[];
    try {
      found = await pinProblems(schema, node.pin.output, node.forEach !== undefined);
    } catch (error) {
      found = [`its JSON schema cannot be read (${(error as Error).message})`];
    }
    if (found.length === 0) continue;
    problems.push({
      code: 'PINNED_OUTPUT',
      severity: 'error',
      message: `node "${node.id}"'s pinned output is not what the node gives: ${found.join('; ')}; edit the pin or unpin it`,
      nodeId: node.id,
      field: 'pin',
    });
  }
  return problems;
}

/** What does not fit: the pin, or, for a node that runs for each item, each item of the list it gives. */
async function pinProblems(
  schema: Readonly<Record<string, unknown>>,
  pin: unknown,
  isList: boolean,
): Promise<string[]> {
  if (!isList) return schemaProblems(schema, pin);
  if (!Array.isArray(pin)) return ['it runs for each item of a list, so it gives a list (a JSON array)'];
  const found = await Promise.all(pin.map((item) => schemaProblems(schema, item)));
  return found.flatMap((problems, i) => problems.map((problem) => `item ${i + 1}: ${problem}`));
}
