import type { z } from 'zod';
import type { AbortSignalLike } from '../model/abort';
import type { LlmPort } from '../model/llm';
import type { LlmMessage, TokenUsage } from '../model/run';

/** A connection point on a node. Edges join an output port to an input port. */
export interface PortSpec {
  id: string;
  label: string;
  /**
   * `data` carries the node's output; `error` is taken only when the node fails
   * (the run then continues down it); `branch` is one side of a condition.
   */
  kind: 'data' | 'error' | 'branch';
}

/** A declarative hint that lets the inspector build a form for one config field. */
export interface EditorField {
  key: string;
  label: string;
  kind: 'text' | 'textarea' | 'template' | 'number' | 'boolean' | 'select' | 'json' | 'list';
  help?: string;
  options?: readonly string[];
  min?: number;
  max?: number;
  step?: number;
  /** Sub-fields of each item, for `list` fields. */
  itemFields?: readonly EditorField[];
}

/** A template text found inside a node's config, with where it sits. */
export interface ConfigTemplate {
  field: string;
  text: string;
}

/** Details a node adds to its step record. */
export interface StepDetails {
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
  readonly llm: LlmPort;
  emitToken(text: string): void;
  report(details: StepDetails): void;
}

/**
 * How a node ended. `ports` names the output ports the run continues on
 * (default: every data port); `stop` ends the whole run.
 */
export type NodeOutcome =
  { kind: 'output'; output: unknown; ports?: readonly string[] } | { kind: 'stop'; reason: string };

/** One node type: everything the model, the editor and the engine need to know about it. */
export interface NodeDefinition<Config = Record<string, unknown>> {
  /** Stable type string saved in flows. */
  type: string;
  /** Current version of the config schema; older saved configs are migrated up to it. */
  version: number;
  label: string;
  category: 'io' | 'text' | 'ai' | 'logic';
  description: string;
  inputs: readonly PortSpec[];
  outputs: readonly PortSpec[];
  /** Parses a config and fills in defaults. Definitions build it with z.lazy (see model/flow.ts). */
  configSchema: z.ZodType<Config, unknown>;
  /** The config of a node just added from the palette. */
  defaults: () => Config;
  editor: readonly EditorField[];
  /** Every template text in the config, so references can be checked and autocompleted. */
  templates: (config: Config) => ConfigTemplate[];
  /** A one-line preview of the config for node views and listings. */
  summary: (config: Config) => string;
  /**
   * Upgrades from older config versions: `migrations[n]` turns a version-n config
   * into a version n+1 config.
   */
  migrations?: Readonly<Record<number, (config: Record<string, unknown>) => Record<string, unknown>>>;
  /** Runs the node; absent for types this build cannot run yet. Throw a FlowbenchError to fail. */
  execute?: (ctx: NodeContext, config: Config) => Promise<NodeOutcome> | NodeOutcome;
}

/** Identity helper that keeps the config type of a definition. */
export function defineNode<Config>(definition: NodeDefinition<Config>): NodeDefinition<Config> {
  return definition;
}

/** Shortens a text for previews. */
export function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
