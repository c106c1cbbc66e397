import type { z } from 'zod';
import type { ProblemCode } from './problems';

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

/** A template text found inside a node's config, with where it sits. */
export interface ConfigTemplate {
  field: string;
  text: string;
}

/** A problem a node type finds in its own config, beyond its schema (see `check`). */
export interface NodeConfigProblem {
  code: ProblemCode;
  severity: 'error' | 'warning';
  message: string;
  /** Dotted path inside the node, e.g. `config.model`. */
  field?: string;
}

/** A field of a result node's structured output (an MCP tool's `outputSchema` property). */
export interface ResultField {
  name: string;
  type: string;
  description: string;
}

/** How a structured result is shown as an MCP App: its title and sample data. */
export interface ResultView {
  title: string;
  mockData?: Record<string, unknown>;
}

/**
 * What the flow model needs to know of a node type to validate and run a flow.
 * Owned here so that `model` depends on no node type: `core/nodes` implements
 * it (NodeDefinition extends NodeTypeSpec) and callers pass its registry in.
 */
export interface NodeTypeSpec<Config = Record<string, unknown>> {
  /** Stable type string saved in flows. */
  type: string;
  /** Current version of the config schema; older saved configs are migrated up to it. */
  version: number;
  inputs: readonly PortSpec[];
  outputs: readonly PortSpec[];
  /** Parses a config and fills in defaults. Definitions build it with z.lazy (see model/flow.ts). */
  configSchema: z.ZodType<Config, unknown>;
  /**
   * Upgrades from older config versions: `migrations[n]` turns a version-n config
   * into a version n+1 config.
   */
  migrations?: Readonly<Record<number, (config: Record<string, unknown>) => Record<string, unknown>>>;
  /** Every template text in the config, so references can be checked and autocompleted. */
  templates: (config: Config) => ConfigTemplate[];
  /** The flow's entry: receives the run's inputs. A flow should have at most one. */
  isEntry?: boolean;
  /** The flow's result: its output is the run's output. A flow without one returns nothing. */
  isResult?: boolean;
  /** It can run once for each item of a list (FlowNode.forEach): it gives one output and picks no branch. */
  runsForEach?: boolean;
  /**
   * Its fields may read `{{secrets.name}}` (HTTP requests: a key in a header).
   * Elsewhere a secret would go to a model, a tool or the run's output.
   */
  readsSecrets?: boolean;
  /** For result nodes: the structured fields the result has, or undefined when it is not structured. */
  resultFields?: (config: Config) => readonly ResultField[] | undefined;
  /** For result nodes: the view (an MCP App) the structured result is shown in, if any. */
  resultView?: (config: Config) => ResultView | undefined;
  /**
   * What an MCP client would suffer from if the node were published as it is
   * (an empty prompt, an empty return value): said before publishing, never blocking it.
   */
  publishWarnings?: (config: Config) => string[];
  /** Problems of a parsed config that its schema cannot express (e.g. an imported agent left unresolved). */
  check?: (config: Config) => NodeConfigProblem[];
}

/** The node types a flow may use, looked up by type string. */
export interface NodeCatalogue {
  get(type: string): NodeTypeSpec | undefined;
  types(): string[];
}
