import { cutText } from '../model/cut-text';
import type { ChannelSettings } from '../model/memory';
import type { Parameter } from '../model/parameter';
import type { N8nData } from './n8n-expressions';
import { asString, freeName, isRecord, type ImportProblem } from './shared';

/** One node of an n8n workflow file, as read (fields of the wrong type read as absent). */
export interface N8nNode {
  name: string;
  type: string;
  typeVersion: number;
  parameters: Record<string, unknown>;
  /** Where it is in the file: `nodes[3]`. */
  source: string;
  raw: Record<string, unknown>;
}

export function readNode(value: unknown, index: number): N8nNode | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.type !== 'string') return undefined;
  return {
    name: value.name,
    type: value.type,
    typeVersion: typeof value.typeVersion === 'number' ? value.typeVersion : 1,
    parameters: isRecord(value.parameters) ? value.parameters : {},
    source: `nodes[${index}]`,
    raw: value,
  };
}

/** A value as a problem quotes it: its JSON, cut to about 60 characters. */
export const preview = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${cutText(text, 57)}…` : text;
};

/** A node whose name another node after it also had: renamed, with the name it had. */
export interface RenamedNode {
  node: N8nNode;
  was: string;
}

/**
 * The nodes with one name each. n8n's connections name the nodes they join,
 * so two nodes of one name (a file edited by hand) cannot be told apart
 * there: the connections are read as the last one's, and each earlier one is
 * renamed (`Function 2`), left with no connection, for the caller to say so.
 * Without this both became the same node id, and the whole file was refused.
 */
export function uniqueNames(nodes: readonly N8nNode[]): { nodes: N8nNode[]; renamed: RenamedNode[] } {
  const last = new Map(nodes.map((node, i) => [node.name, i]));
  const used = new Set(last.keys());
  const renamed: RenamedNode[] = [];
  const unique = nodes.map((node, i) => {
    if (last.get(node.name) === i) return node;
    const copy = { ...node, name: freeName(used, node.name, ' ') };
    renamed.push({ node: copy, was: node.name });
    return copy;
  });
  return { nodes: unique, renamed };
}

/** The sub-nodes n8n attaches to an AI node (its model, tools, memory, output parser), by connection type. */
export type SubNodeKind = 'ai_languageModel' | 'ai_tool' | 'ai_memory' | 'ai_outputParser';

/** What a converter is given for one main node. */
export interface ConvertContext {
  node: N8nNode;
  /** Its Flowbench node id. */
  id: string;
  /** A parameter's value as a template (expressions rewritten, the others said); `field` is its path in `parameters`. */
  template: (value: unknown, field: string) => string;
  /** What comes into its input `input` (a Merge's second is 1). */
  inputData: (input: number) => N8nData | undefined;
  /** As `template`, with `$json` reading what comes into its input `input`. */
  templateOfInput: (input: number, value: unknown, field: string) => string;
  /** The sub-nodes attached to it (or to `of`, one of its sub-nodes) of a kind, in the file's order. */
  attached: (kind: SubNodeKind, of?: N8nNode) => N8nNode[];
  /** Says something about the node: an error unless `severity` is warning. */
  problem: (message: string, options?: { field?: string; severity?: 'warning'; on?: N8nNode }) => void;
  /** Declares a memory channel of the flow (a memory sub-node's). */
  channel: (settings: ChannelSettings) => void;
}

/** A main node as Flowbench has it. */
export interface Converted {
  type: string;
  config: Record<string, unknown>;
  /** The ports of its outputs in n8n's order (IF: true, false); `out` alone unless said. */
  ports?: string[];
  /** Nodes after it that it takes to do what the n8n node does (a Switch's second rule on), placed below it. */
  followers?: { suffix: string; label: string; type: string; config: Record<string, unknown> }[];
  /** The edges between it (`from` absent) and its followers (by suffix). */
  inner?: { from?: string; port: string; to: string }[];
  /** Where each n8n output leaves from, when not its own `ports`: a port of it or of a follower. */
  outputs?: { from?: string; port: string }[];
  /** The flow's parameters a trigger brings. */
  parameters?: Parameter[];
  /** The top-level parameters the converter read; any other the node sets is said as left out. */
  read: string[];
  /** It ends the run (Stop and Error): no output node follows it. */
  endsRun?: boolean;
  /** Node settings beyond its config (a time limit from the node's options). */
  timeoutMs?: number;
}

export interface NodeKind {
  /** What `$json` reads of its item after it, given its id and (for nodes that hand their item on) their input's data. */
  data: (
    node: N8nNode,
    id: string,
    input: N8nData | undefined,
    attached: (kind: SubNodeKind) => N8nNode[],
  ) => N8nData | undefined;
  convert: (ctx: ConvertContext) => Converted;
}

/** n8n resource locators (`{ __rl: true, mode: 'list', value: 'gpt-4o-mini' }`) and plain strings, as their value. */
export function locatorValue(value: unknown): string {
  if (isRecord(value) && '__rl' in value) return asString(value.value);
  return asString(value);
}

/** The rows of an n8n fixed collection (`{ parameters: [ … ] }`, `{ values: [ … ] }`). */
export function rows(collection: unknown, key: string): Record<string, unknown>[] {
  const list = isRecord(collection) ? collection[key] : undefined;
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** Says each key of `options` the converter does not read (an option n8n applies and Flowbench would not). */
export function optionsLeftOut(
  ctx: ConvertContext,
  options: unknown,
  read: readonly string[],
  field = 'options',
): void {
  if (!isRecord(options)) return;
  for (const key of Object.keys(options)) {
    if (read.includes(key)) continue;
    ctx.problem(
      `its option ${key} (${JSON.stringify(options[key])}) is not carried over: Flowbench has no such setting here`,
      {
        field: `${field}.${key}`,
        severity: 'warning',
      },
    );
  }
}

export type { ImportProblem };
