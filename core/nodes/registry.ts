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
import { templateNode } from './template/definition';
import { httpNode } from './http/definition';
import { codeNode } from './code/definition';

// Definitions are stored type-erased: each one parses its own config.
type AnyNodeDefinition = NodeDefinition<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type ErasedDefinition = NodeDefinition<Record<string, unknown>>;

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
  callees(node: { type: string; config: unknown }): readonly Callee[] {
    const definition = this.byType.get(node.type);
    if (!definition?.calls) return [];
    const parsed = definition.configSchema.safeParse(node.config);
    return parsed.success ? definition.calls(parsed.data) : [];
  }

  /** The models a node calls (its definition's `models`); none for a config that does not parse. */
  models(node: { type: string; config: unknown }): readonly ModelUse[] {
    const definition = this.byType.get(node.type);
    if (!definition?.models) return [];
    const parsed = definition.configSchema.safeParse(node.config);
    return parsed.success ? definition.models(parsed.data) : [];
  }

  /**
   * Whether running the node may call a model: its type names the models it
   * calls (an LLM or agent node, whatever its config), or it calls a flow or
   * a library agent, whose models show only when they run. A tool call does not.
   */
  mayCallModels(node: { type: string; config: unknown }): boolean {
    if (this.byType.get(node.type)?.models) return true;
    return this.callees(node).some((callee) => callee.kind !== 'tool');
  }

  /** The node's output schema as its config declares it (its definition's `outputSchema`); none for a config that does not parse. */
  outputSchema(node: { type: string; config: unknown }): Readonly<Record<string, unknown>> | undefined {
    const definition = this.byType.get(node.type);
    if (!definition?.outputSchema) return undefined;
    const parsed = definition.configSchema.safeParse(node.config);
    return parsed.success ? definition.outputSchema(parsed.data) : undefined;
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
  stopNode,
  outputNode,
] as const;

/** Every built-in node type string, derived from the registrations: a misspelled type does not compile. */
export type NodeType = (typeof BUILT_IN)[number]['type'];

export const nodeRegistry = new NodeRegistry(BUILT_IN);
