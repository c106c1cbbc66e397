import { asString, isRecord } from './shared';
import { informationExtractor, textClassifier } from './n8n-ai-extractors';
import { memoryFrom, modelFrom, schemaFromExample, toolsFrom } from './n8n-sub-nodes';
import { locatorValue, optionsLeftOut, rows, type ConvertContext, type N8nNode, type NodeKind } from './n8n-model';

/**
 * n8n's AI nodes: the AI Agent, the Basic LLM Chain and the OpenAI node.
 * n8n attaches their model, tools, memory and output parser as sub-nodes;
 * Flowbench has them as the node's settings, so each sub-node is folded into
 * the node it serves, and what it cannot take (a credential, a non-MCP tool)
 * is said on it.
 */

/** n8n's default system message of an AI Agent, sent when the node sets none. */
const AGENT_SYSTEM = 'You are a helpful assistant';
/** The prompt of an agent or chain: its own text when defined, else the chat message n8n takes from its input. */
function promptOf(ctx: ConvertContext, older: string): string {
  const p = ctx.node.parameters;
  if (p.promptType === 'define' || (p.promptType === undefined && ctx.node.parameters[older] !== undefined))
    return ctx.template(p.promptType === 'define' ? p.text : p[older], p.promptType === 'define' ? 'text' : older);
  return ctx.template('={{ $json.chatInput }}', 'promptType');
}

const agent: NodeKind = {
  data: (_node, id) => ({ kind: 'answer', nodeId: id, keys: ['output'] }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['systemMessage', 'maxIterations']);
    const parsers = ctx.attached('ai_outputParser');
    if (p.hasOutputParser === true || parsers.length > 0)
      ctx.problem(
        `its output parser${parsers.map((parser) => ` "${parser.name}"`).join(',')} is not carried over: a Flowbench agent answers text; an LLM node's JSON output gives fields`,
        {
          field: 'hasOutputParser',
        },
      );
    const steps =
      typeof options.maxIterations === 'number' ? Math.min(100, Math.max(1, Math.round(options.maxIterations))) : 10;
    return {
      type: 'agent',
      config: {
        ...modelFrom(ctx),
        system: ctx.template(options.systemMessage ?? AGENT_SYSTEM, 'options.systemMessage'),
        prompt: promptOf(ctx, 'text'),
        tools: toolsFrom(ctx),
        maxSteps: steps,
        ...memoryFrom(ctx),
      },
      read: ['promptType', 'text', 'options', 'hasOutputParser', 'agent'],
    };
  },
};

/** The JSON output a chain's Structured Output Parser asks for, or nothing (said) when it cannot be read. */
function jsonOutputFrom(ctx: ConvertContext): Record<string, unknown> {
  const [outer] = ctx.attached('ai_outputParser');
  if (!outer) return {};
  // An Auto-fixing parser wraps the parser whose schema the answer must fit.
  const [inner] = outer.type.endsWith('.outputParserAutofixing') ? ctx.attached('ai_outputParser', outer) : [];
  const parser = inner ?? outer;
  if (inner)
    ctx.problem(
      `its output parser "${outer.name}" has a model fix an answer that does not fit "${inner.name}"'s schema; here such an answer fails the node (its retries ask again)`,
      { on: outer, severity: 'warning' },
    );
  const p = parser.parameters;
  const manual = p.schemaType === 'manual';
  const text = asString(manual ? p.inputSchema : (p.jsonSchemaExample ?? p.jsonSchema));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parser.type.endsWith('.outputParserStructured') || !isRecord(parsed)) {
    ctx.problem(
      `its output parser "${parser.name}" is not carried over: set JSON output and its schema in the inspector`,
      {
        on: parser,
      },
    );
    return {};
  }
  return {
    outputFormat: 'json',
    jsonSchema: manual || p.jsonSchema !== undefined ? parsed : schemaFromExample(parsed),
  };
}

const chain: NodeKind = {
  // With a Structured Output Parser, n8n's chain answers `{ output: { … } }`.
  data: (_node, id, _input, attached) => ({
    kind: 'answer',
    nodeId: id,
    keys: [attached('ai_outputParser').length > 0 ? 'output' : 'text'],
  }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const system: string[] = [];
    rows(p.messages, 'messageValues').forEach((message, i) => {
      const type = asString(message.type, 'SystemMessagePromptTemplate');
      if (type === 'SystemMessagePromptTemplate' && asString(message.messageType, 'text') === 'text')
        system.push(ctx.template(message.message, `messages.messageValues[${i}].message`));
      else
        ctx.problem(
          `its ${type === 'AIMessagePromptTemplate' ? 'AI' : type === 'HumanMessagePromptTemplate' ? 'user' : 'image'} message is not carried over: an LLM node sends a system prompt and a prompt`,
          { field: `messages.messageValues[${i}]` },
        );
    });
    return {
      type: 'llm',
      config: {
        ...modelFrom(ctx),
        system: system.join('\n\n'),
        prompt: promptOf(ctx, 'prompt'),
        ...jsonOutputFrom(ctx),
      },
      read: ['promptType', 'text', 'prompt', 'messages', 'hasOutputParser'],
    };
  },
};

/** The OpenAI node's "Message a model" (its other resources are not carried over). */
const openAiMessage: NodeKind = {
  data: (_node, id) => ({ kind: 'answer', nodeId: id, keys: ['message', 'content'] }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const system: string[] = [];
    const prompt: string[] = [];
    rows(p.messages, 'values').forEach((message, i) => {
      const text = ctx.template(message.content, `messages.values[${i}].content`);
      const role = asString(message.role, 'user');
      if (role === 'system') system.push(text);
      else if (role === 'user') prompt.push(text);
      else ctx.problem(`its ${role} message is not carried over`, { field: `messages.values[${i}]` });
    });
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['temperature', 'topP', 'maxTokens']);
    const model = locatorValue(p.modelId);
    ctx.problem(
      `its OpenAI credential is not carried over: it uses Flowbench's default provider${model ? ` with the model ${model}` : ''}`,
      { severity: 'warning' },
    );
    const number = (key: string) => (typeof options[key] === 'number' ? options[key] : undefined);
    return {
      type: 'llm',
      config: {
        ...(model ? { model } : {}),
        system: system.join('\n\n'),
        prompt: prompt.join('\n\n'),
        ...(p.jsonOutput === true ? { outputFormat: 'json' } : {}),
        ...(number('temperature') !== undefined ? { temperature: number('temperature') } : {}),
        ...(number('topP') !== undefined ? { topP: number('topP') } : {}),
        ...(number('maxTokens') !== undefined ? { maxTokens: number('maxTokens') } : {}),
      },
      read: ['resource', 'operation', 'modelId', 'messages', 'jsonOutput', 'options', 'simplify'],
    };
  },
};

export const AI_NODES: Record<string, NodeKind> = {
  '@n8n/n8n-nodes-langchain.textClassifier': textClassifier,
  '@n8n/n8n-nodes-langchain.informationExtractor': informationExtractor,
  '@n8n/n8n-nodes-langchain.agent': agent,
  '@n8n/n8n-nodes-langchain.chainLlm': chain,
};

/** The OpenAI node, when it messages a model (its default). */
export const openAiKind = (node: N8nNode): NodeKind | undefined =>
  node.type === '@n8n/n8n-nodes-langchain.openAi' &&
  asString(node.parameters.resource, 'text') === 'text' &&
  asString(node.parameters.operation, 'message') === 'message'
    ? openAiMessage
    : undefined;
