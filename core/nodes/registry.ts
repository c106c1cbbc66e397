import type { ModelUse } from '../model/llm';
import type { NodeCatalogue } from '../model/node-catalogue';
import type { Callee, NodeDefinition } from './define-node';
import { agentNode } from './agent/definition';
import { askNode } from './ask/definition';
import { conditionNode } from './condition/definition';
import { flowNode } from './flow/definition';
import { mcpToolNode } from './mcp-tool/definition';
import { inputNode } from './input/definition';
import { llmNode } from './llm/definition';
import { outputNode } from './output/definition';
import { stopNode } from './stop/definition';
import { waitNode } from './wait/definition';
import { templateNode } from './template/definition';
import { httpNode } from './http/definition';
import { codeNode } from './code/definition';

// Definitions are stored type-erased: each one parses its own config.
type AnyNodeDefinition = NodeDefinition<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type ErasedDefinition = NodeDefinition<Record<string, unknown>>;
type ConfiguredNode = { type: string; config: unknown };

export class NodeRegistry implements NodeCatalogue {
  private readonly byType = new Map<string, ErasedDefinition>();

  constructor(definitions: readonly AnyNodeDefinition[]) {
    for (const definition of definitions) {
      if (this.byType.has(definition.type)) {
        throw new Error(`node type "${definition.type}" is registered twice`);
      }
      this.byType.set(definition.type, definition as ErasedDefinition);
    }
  }

  get(type: string): ErasedDefinition | undefined {
    return this.byType.get(type);
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  types(): string[] {
    return [...this.byType.keys()];
  }

  /** What a node calls (its definition's `calls`); nothing for a config that does not parse (validation says why). */
  callees(node: ConfiguredNode): readonly Callee[] {
    return this.fromConfig(node, (definition) => definition.calls, []);
  }

  /** The models a node calls (its definition's `models`); none for a config that does not parse. */
  models(node: ConfiguredNode): readonly ModelUse[] {
    return this.fromConfig(node, (definition) => definition.models, []);
  }

  /**
   * Whether running the node may call a model: its type names the models it
   * calls (an LLM or agent node, whatever its config), or it calls a flow or
   * a library agent, whose models show only when they run. A tool call does not.
   */
  mayCallModels(node: ConfiguredNode): boolean {
    if (this.byType.get(node.type)?.models) return true;
    return this.callees(node).some((callee) => callee.kind !== 'tool');
  }

  /** The node's output schema as its config declares it (its definition's `outputSchema`); none for a config that does not parse. */
  outputSchema(node: ConfiguredNode): Readonly<Record<string, unknown>> | undefined {
    return this.fromConfig(node, (definition) => definition.outputSchema, undefined);
  }

  /** The least time a run of the node takes (its definition's `leastDurationMs`); 0 for a config that does not parse. */
  leastDurationMs(node: ConfiguredNode): number {
    return this.fromConfig(node, (definition) => definition.leastDurationMs, 0);
  }

  /** What a capability of the node's definition says of its parsed config; `none` without it, or for a config that does not parse. */
  private fromConfig<T>(
    node: ConfiguredNode,
    capability: (definition: ErasedDefinition) => ((config: Record<string, unknown>) => T) | undefined,
    none: T,
  ): T {
    const definition = this.byType.get(node.type);
    const read = definition && capability(definition);
    if (!definition || !read) return none;
    const parsed = definition.configSchema.safeParse(node.config);
    return parsed.success ? read(parsed.data) : none;
  }

  all(): ErasedDefinition[] {
    return [...this.byType.values()];
  }
}

/** The built-in node types, in palette order. Adding a type: its folder, and one line here. */
const BUILT_IN = [
  inputNode,
  askNode,
  templateNode,
  codeNode,
  llmNode,
  agentNode,
  mcpToolNode,
  httpNode,
  flowNode,
  conditionNode,
  waitNode,
  stopNode,
  outputNode,
] as const;

/** Every built-in node type string, derived from the registrations: a misspelled type does not compile. */
export type NodeType = (typeof BUILT_IN)[number]['type'];

export const nodeRegistry = new NodeRegistry(BUILT_IN);
