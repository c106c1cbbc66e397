import type { AbortSignalLike } from '../model/abort';
import type { LlmPort, ModelUse } from '../model/llm';
import type { NodeTypeSpec } from '../model/node-catalogue';
import type { MemoryPort } from '../model/memory';
import type { HumanInputPort } from '../model/human-input';
import type { HttpPort } from '../model/http';
import type { CodePort } from '../model/code';
import type { AgentResolver } from '../model/agents';
import type { LlmMessage, StepLinks, TokenUsage } from '../model/run';
import type { SubflowPort } from '../model/subflows';
import type { ToolCallRecord, ToolPort } from '../model/tools';
import { cutText } from '../model/cut-text';

export type { ConfigTemplate, PortSpec } from '../model/node-catalogue';

export interface ShownWhen {
  key: string;
  is: readonly string[];
  orWhenSet?: boolean;
}

interface EditorFieldBase {
  label: string;
  /**
   * `value`: text or JSON (see core/editing/text-or-json.ts); `json`: JSON
   * only; `values`: a list of strings typed comma separated.
   */
  kind:
    'text' | 'textarea' | 'template' | 'code' | 'number' | 'boolean' | 'select' | 'json' | 'value' | 'values' | 'list';
  /**
   * Shown only while the config's (a list item's) `key` is one of `is`: the
   * enum options of an enum field. With `orWhenSet`, also while the field
   * holds a value, so that one the other choice cannot use is seen and cleared.
   * A list of them: shown while each holds (an HTTP body: a method that sends one, and its kind).
   */
  shownWhen?: ShownWhen | readonly ShownWhen[];
  help?: string;
  options?: readonly string[];
  /** What the editor shows for each option, where the stored value is not for people (`return_values`). */
  optionLabels?: Readonly<Record<string, string>>;
  min?: number;
  max?: number;
  step?: number;
  /** The value a new item of a list starts with (a sub-field's hint). */
  initial?: unknown;
  /** `initial` is numbered (`answer_2`) while another item of the list has it: names must differ. */
  unique?: boolean;
  /**
   * A text field the editor offers choices for, free text still allowed: the
   * configured providers' names, the models of the node's provider, the
   * connected MCP servers, the tools of the item's server, the library's
   * agent versions, or the saved flows; or JSONPaths into what the item's
   * `value` template gives (the fields known inside a node's output).
   */
  suggest?: 'providers' | 'models' | 'servers' | 'tools' | 'agents' | 'flows' | 'paths';
  /** A list of tools (`server`, `tool` items): the editor also offers them ticked off a chosen server's list. */
  choose?: 'tools';
}

/** An editor hint with its config type erased: what the inspector reads. */
export interface AnyEditorField extends EditorFieldBase {
  key: string;
  /** Sub-fields of each item, for `list` fields. */
  itemFields?: readonly AnyEditorField[];
}

/** The sub-fields of a list: hints typed against the list's item, when the config says what an item is. */
type ItemFields<Value> = unknown extends Value
  ? readonly AnyEditorField[]
  : NonNullable<Value> extends readonly (infer Item)[]
    ? readonly EditorField<Item>[]
    : never;

/**
 * A declarative hint that lets the inspector build a form for one config
 * field. `key` is a key of the node's config (and `itemFields` keys of a list's
 * items), so a misspelled key does not compile.
 */
export type EditorField<Config = Record<string, unknown>> = {
  [Key in keyof Config & string]: EditorFieldBase & { key: Key; itemFields?: ItemFields<Config[Key]> };
}[keyof Config & string];

/** Details a node adds to its step record. */
export interface StepDetails extends StepLinks {
  /** What the node resolved from its templates (the rendered prompt, the tested values). */
  input?: unknown;
  messages?: LlmMessage[];
  usage?: TokenUsage;
}

/** What a node sees while it runs. Hosts provide the ports; nodes never reach further. */
export interface NodeContext {
  readonly nodeId: string;
  /** Aborted on cancellation, timeout or when the run ends early; pass it to every call. */
  readonly signal: AbortSignalLike;
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Renders a template against the inputs and upstream outputs. */
  render(template: string): string;
  /** Like render, but a lone reference yields the referenced value itself. */
  resolve(template: string): unknown;
  /**
   * Resolves after `ms`, or at once when the node's signal aborts (the engine
   * then ends the node as cancelled or timed out). Nodes have no timers of
   * their own: core's isomorphic part has no setTimeout.
   */
  wait(ms: number): Promise<void>;
  /** True when an upstream node ran (succeeded or failed); false when it was skipped or is unknown. */
  ran(nodeId: string): boolean;
  readonly llm: LlmPort;
  /** MCP tools of the connected servers. */
  readonly tools: ToolPort;
  /** Other saved flows, run as children of this run. */
  readonly subflows: SubflowPort;
  /** The agent library's published versions. */
  readonly agents: AgentResolver;
  /** The flow's memory channels (reads and writes of llm and agent nodes). */
  readonly memory: MemoryPort;
  /** A person to ask (ask nodes): the MCP client, the editor's Run panel or a terminal. */
  readonly human: HumanInputPort;
  /** The network (HTTP request nodes). */
  readonly http: HttpPort;
  /** The sandbox code nodes run their code in. */
  readonly code: CodePort;
  /** This run's id, and the flows of the runs above it (flow nodes use them). */
  readonly runId: string;
  readonly callers: readonly string[];
  /**
   * True when someone watches this run's tokens (the editor): model nodes
   * then stream. Elsewhere (CLI, MCP, tests, child runs) they make one plain
   * request: streaming costs about a millisecond per call in the AI SDK.
   */
  readonly streamsTokens: boolean;
  emitToken(text: string): void;
  /**
   * A signal that aborts with the node's own and can be aborted by the node
   * (an agent ends its loop on the first failed tool call); dispose when done.
   */
  childSignal(): { signal: AbortSignalLike; abort(reason: unknown): void; dispose(): void };
  /** Records a tool call as it starts and again when it ends; the canvas shows it live. */
  toolCall(call: ToolCallRecord): void;
  report(details: StepDetails): void;
}

/**
 * How a node ended. `ports` names the output ports the run continues on
 * (default: every data port); `stop` ends the whole run.
 */
export type NodeOutcome =
  { kind: 'output'; output: unknown; ports?: readonly string[] } | { kind: 'stop'; reason: string };

export type NodeCategory = 'io' | 'text' | 'ai' | 'logic';

/** What a node type's icon shows; the editor draws each (renderer/src/editor/node-icons.tsx). */
export type NodeIcon =
  | 'enter'
  | 'ask'
  | 'text'
  | 'code'
  | 'model'
  | 'agent'
  | 'tool'
  | 'web'
  | 'flow'
  | 'branch'
  | 'wait'
  | 'stop'
  | 'result';

/**
 * Something a node calls by name that lives outside its flow: a saved flow, an
 * agent version of the library, a tool of a connected server. `field` is the
 * config path naming it, where problems about it point.
 */
export type Callee =
  | { kind: 'flow'; ref: string; field: string; values?: PassedValues }
  | { kind: 'tool'; server: string; tool: string; field: string; values?: PassedValues }
  | { kind: 'agent'; versionId: string; field: string };

/** The node's list of named values the call passes (a flow node's Inputs), checked against what the callee takes. */
export interface PassedValues {
  /** The config key of the list (`inputs`, `arguments`). */
  key: string;
  /** Its label in the inspector, where a problem says to add one. */
  label: string;
}

/**
 * One node type: everything the model, the editor and the engine need to know
 * about it. Code outside `core/nodes` asks a definition what it can do (its
 * capabilities below and in NodeTypeSpec); it never compares type strings.
 */
export interface NodeDefinition<
  Config = Record<string, unknown>,
  Type extends string = string,
> extends NodeTypeSpec<Config> {
  type: Type;
  label: string;
  category: NodeCategory;
  icon: NodeIcon;
  description: string;
  /** The config of a node just added from the palette. */
  defaults: () => Config;
  editor: readonly EditorField<Config>[];
  /** A one-line preview of the config for node views and listings. */
  summary: (config: Config) => string;
  /** Node views show the flow's parameter names instead of the summary (the entry node). */
  showsParameters?: boolean;
  /**
   * The inspector offers attempts and a time limit (default true). False for
   * nodes that only pass data along and cannot time out or be retried.
   */
  hasRunSettings?: boolean;
  /** The time limit of a node of this type that sets none, when the run's default does not suit it (a person answering). */
  defaultTimeoutMs?: number;
  /**
   * A run may pause here for a person's answer (through the run's human
   * input port). Hosts that keep a paused run across requests (MCP's
   * 2026-07-28 input requests) set that up only for flows with such a node.
   * Runs of other flows (flow and agent nodes) get no human input port.
   */
  asksPeople?: boolean;
  /**
   * The config with `reference` (`{{nodes.<id>.output}}`) written into the
   * node's main text when that text is empty: connecting an upstream node
   * fills it in. Undefined when there is nothing empty to fill.
   */
  fillEmptyText?: (config: Config, reference: string) => Config | undefined;
  /**
   * The least time a run of the node takes, as its config says (a wait node's
   * wait). An MCP host tells clients a flow is long before its history does.
   */
  leastDurationMs?: (config: Config) => number;
  /**
   * The ports an output takes when a run reuses it from an earlier run instead
   * of running the node (default: every data port). Nodes that choose their
   * ports from their output (a condition) say how here.
   */
  portsFor?: (output: unknown) => readonly string[];
  /**
   * What the node calls, as its config names it (nothing chosen yet: left
   * out). The library checks (a flow missing, never published, calling back,
   * given inputs it does not take) and the inspector's offer of what a callee
   * takes go by this, not by the node's type.
   */
  calls?: (config: Config) => readonly Callee[];
  /**
   * The models the node calls, as its config names them: a host that serves
   * the flow builds their clients before its first call (McpHost). Left out
   * where a model comes from elsewhere (an agent version of the library).
   */
  models?: (config: Config) => readonly ModelUse[];
  /**
   * The node's output is what it calls returns (an MCP tool node, a flow
   * node): what the callee declares of its result is what the node gives.
   */
  returnsCallee?: boolean;
  /**
   * The JSON Schema of the node's output when its config says what it is (an
   * LLM's JSON answer with a schema, an ask node's fields): the editor offers
   * its fields as references and JSONPaths before the node has ever run.
   */
  outputSchema?: (config: Config) => Readonly<Record<string, unknown>> | undefined;
  /** Runs the node; absent for types this build cannot run yet. Throw a FlowbenchError to fail. */
  execute?: (ctx: NodeContext, config: Config) => Promise<NodeOutcome> | NodeOutcome;
}

/** Identity helper that keeps the config type and the literal type string of a definition. */
export function defineNode<Config, const Type extends string>(
  definition: NodeDefinition<Config, Type>,
): NodeDefinition<Config, Type> {
  return definition;
}

/** Shortens a text for previews. */
export function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${cutText(flat, max - 1)}…` : flat;
}
