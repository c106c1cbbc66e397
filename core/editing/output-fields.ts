import type { FlowNode } from '../model/flow';
import { isRecord } from '../model/is-record';
import { schemaChoices, schemaItems, schemaProperties, schemaText, schemaTypes } from '../model/schema-shape';
import { parseReference, parseTemplate } from '../model/template';
import type { ReferenceOption } from './references';
import { nodeRegistry } from '../nodes/registry';
import { cutText } from '../model/cut-text';

/** A field inside a node's JSON output, as the editor offers it. */
export interface OutputField {
  /** Keys from the output down, `'0'` standing for an array's first item. */
  path: readonly string[];
  /** What it is: its schema type and description, or what a run gave. */
  detail: string;
}

// Offers, not a browser of the whole output: a big tool result would bury the references.
const MAX_DEPTH = 3;
const MAX_FIELDS = 40;
// A key a template path can name (see template.ts): others are left out rather than offered broken.
const KEY = /^[A-Za-z0-9_-]+$/;

/** What the editor knows of a node's output besides its config: what it calls declares, what a run gave. */
export interface KnownOutput {
  /** The schema of what the node calls (an MCP tool's outputSchema, a published flow's structured result). */
  declared?: unknown;
  /** What the node gave in the run shown. */
  seen?: unknown;
}

/**
 * The fields of a node's JSON output the editor knows of: those its config
 * declares (an LLM's JSON schema, an ask node's fields) or what it calls
 * declares, then those of what a run gave (JSON without a schema).
 */
export function outputFields(
  node: Pick<FlowNode, 'type' | 'config' | 'forEach'>,
  known: KnownOutput = {},
): OutputField[] {
  const fields = new Map<string, OutputField>();
  const add = (path: readonly string[], detail: string) => {
    const key = path.join('.');
    if (!fields.has(key) && fields.size < MAX_FIELDS) fields.set(key, { path, detail });
  };
  // A node that runs for each item gives a list of what it declares: the fields are the first item's.
  const each = node.forEach ? ['0'] : [];
  fromSchema(nodeRegistry.outputSchema(node), each, add);
  fromSchema(known.declared, each, add);
  fromValue(known.seen, [], add);
  return [...fields.values()];
}

type Add = (path: readonly string[], detail: string) => void;

/** The fields `schema` declares; `root` is what its `$ref`s point into (pydantic's `$defs`). */
function fromSchema(schema: unknown, at: readonly string[], add: Add, root: unknown = schema): void {
  if (at.length >= MAX_DEPTH) return;
  for (const [key, property] of schemaProperties(schema, root)) {
    if (!KEY.test(key)) continue;
    const path = [...at, key];
    add(path, schemaDetail(property, root));
    fromSchema(property, path, add, root);
  }
  // An array of objects: the fields of its first item.
  const items = schemaItems(schema, root);
  if (items !== undefined && at.length > 0) fromSchema(items, [...at, '0'], add, root);
}

function schemaDetail(schema: unknown, root: unknown): string {
  const type = schemaTypes(schema, root).join(' or ');
  const listed = schemaChoices(schema, root);
  const choices = listed ? `one of ${listed.map((v) => JSON.stringify(v)).join(', ')}` : '';
  const about = [choices, schemaText(schema, 'description', root) ?? ''].filter(Boolean).join(', ');
  // "string: one of "low", "high", how urgent", "string", or what there is of it.
  return type && about ? `${type}: ${about}` : type || about || 'field';
}

function fromValue(value: unknown, at: readonly string[], add: Add): void {
  if (at.length >= MAX_DEPTH) return;
  if (Array.isArray(value)) {
    if (at.length > 0 && value.length > 0) {
      add([...at, '0'], `first of ${value.length}: ${shortJson(value[0])}`);
      fromValue(value[0], [...at, '0'], add);
    }
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (!KEY.test(key)) continue;
    const path = [...at, key];
    add(path, `last run: ${shortJson(inner)}`);
    fromValue(inner, path, add);
  }
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${cutText(text, 39)}…` : text;
}

/** A field's path as a template writes it after `output`: `.items[0].name`. */
export const templatePath = (path: readonly string[]) =>
  path.map((key) => (/^\d+$/.test(key) ? `[${key}]` : `.${key}`)).join('');

/** A field's path in JSONPath after `$`: `.items[0]['first-name']`. */
const jsonPath = (path: readonly string[]) =>
  path.map((key) => (/^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `['${key}']`)).join('');

/**
 * JSONPaths into the value a condition rule tests, when its value is one
 * node's output (`{{nodes.classify.output}}`, or a field of it): `$.urgency`
 * for each field `references` (referencesFor) offers under it. Anything else
 * offers `$` alone.
 */
export function jsonPathsFor(template: string, references: readonly ReferenceOption[]): string[] {
  const segments = parseTemplate(template.trim());
  const only = segments.length === 1 ? segments[0] : undefined;
  if (only?.kind !== 'ref' || only.ref.scope !== 'nodes' || only.ref.field !== 'output') return ['$'];
  const { nodeId, path: under } = only.ref;
  const below = references.flatMap((option) => {
    const field = option.isField ? parseReference(option.label) : undefined;
    if (!field || 'error' in field || field.scope !== 'nodes' || field.nodeId !== nodeId) return [];
    const { path } = field;
    const isUnder = path.length > under.length && under.every((key, i) => path[i] === key);
    return isUnder ? [`$${jsonPath(path.slice(under.length))}`] : [];
  });
  return ['$', ...below];
}
