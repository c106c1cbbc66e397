import type { Flow } from './flow';
import { isRecord } from './is-record';

/**
 * Where each field of `input` that `kept` (its parse by a schema) lacks is,
 * as paths below `path` (`nodes[1].config.temprature`): what parsing dropped
 * without a word. Our schemas have no transforms, so a field missing from the
 * parse is one the schema does not know (a misspelt `descripton`, a hand edit).
 */
export function droppedFields(input: unknown, kept: unknown, path = ''): string[] {
  const found: string[] = [];
  collect(input, kept, path, found);
  return found;
}

function collect(input: unknown, kept: unknown, path: string, found: string[]): void {
  if (Array.isArray(input) && Array.isArray(kept)) {
    input.forEach((item, i) => collect(item, kept[i], `${path}[${i}]`, found));
    return;
  }
  if (!isRecord(input) || !isRecord(kept)) return;
  for (const key of Object.keys(input)) {
    // A field that holds nothing (undefined, which structured clone carries and JSON does not) loses nothing.
    if (input[key] === undefined) continue;
    const at = path ? `${path}.${key}` : key;
    // Own keys only: `constructor` or `__proto__` in a file are fields like any other.
    if (Object.hasOwn(kept, key)) collect(input[key], kept[key], at, found);
    else found.push(at);
  }
}

/** A setting a node's config has and its type does not. */
export interface DroppedSetting {
  nodeId: string;
  type: string;
  /** From the node: `config.temprature`, `config.fields[0].descripton`. */
  field: string;
}

/**
 * The settings of `input`'s nodes (a flow as it came in, parsed JSON) that
 * validation dropped from `validated` (its result): a node's config is free
 * form in a flow's schema, and only its type's schema, which validation
 * parses it with, knows its settings. Nodes validation did not keep have none;
 * with `only`, nodes it does not name are not looked at.
 */
export function droppedSettings(input: unknown, validated: Flow, only?: ReadonlySet<string>): DroppedSetting[] {
  const nodes = isRecord(input) && Array.isArray(input.nodes) ? (input.nodes as unknown[]) : [];
  const byId = new Map(validated.nodes.map((node) => [node.id, node]));
  return nodes.flatMap((raw) => {
    if (!isRecord(raw) || typeof raw.id !== 'string' || (only && !only.has(raw.id))) return [];
    const node = byId.get(raw.id);
    if (!node) return [];
    return droppedFields(raw.config, node.config, 'config').map((field) => ({
      nodeId: node.id,
      type: node.type,
      field,
    }));
  });
}
