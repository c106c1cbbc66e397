import { FLOWBENCH_SERVER } from '../model/tools';
import { asString, isRecord, toolNameFrom } from './shared';
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
const SHORT = (type: string) => type.slice(type.lastIndexOf('.') + 1);

/** The model of the chat-model sub-node, with its sampling options, on the default provider (said). */
function modelFrom(ctx: ConvertContext): Record<string, unknown> {
  const [model, ...more] = ctx.attached('ai_languageModel');
  for (const other of more)
    ctx.problem(`its second model "${other.name}" (a fallback in n8n) is not carried over`, {
      on: other,
      severity: 'warning',
    });
  if (!model) {
    ctx.problem("no chat model is attached: it uses the default provider's default model", { severity: 'warning' });
    return {};
  }
  const p = model.parameters;
  const name = locatorValue(p.model) || asString(p.modelName);
  const credential = Object.values(isRecord(model.raw.credentials) ? model.raw.credentials : {}).find(isRecord);
  ctx.problem(
    `${name ? `the model ${name} is carried over, on Flowbench's default provider` : "the provider's default model is used"}${credential ? `; n8n's credential "${asString(credential.name)}" is not` : ''}: choose the provider in the inspector if it is another one (${SHORT(model.type)})`,
    { on: model, severity: 'warning' },
  );
  const options = isRecord(p.options) ? p.options : {};
  const number = (key: string, min: number) => {
    const value = options[key];
    return typeof value === 'number' && value >= min ? value : undefined;
  };
  optionsLeftOut({ ...ctx, problem: (m, o) => ctx.problem(m, { ...o, on: model }) }, options, [
    'temperature',
    'topP',
    'maxTokens',
    'maxTokensToSample',
  ]);
  return {
    ...(name ? { model: name } : {}),
    ...(number('temperature', 0) !== undefined ? { temperature: Math.min(2, number('temperature', 0)!) } : {}),
    ...(number('topP', 0) !== undefined ? { topP: Math.min(1, number('topP', 0)!) } : {}),
    ...((number('maxTokens', 1) ?? number('maxTokensToSample', 1)) !== undefined
      ? { maxTokens: Math.round((number('maxTokens', 1) ?? number('maxTokensToSample', 1))!) }
      : {}),
  };
}

/** An MCP server's name in Flowbench for n8n's MCP Client Tool node of that name. */
const serverName = (node: N8nNode) =>
  node.name
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64) || 'mcp';

/** The agent's tools: an MCP Client Tool's as `server/tool` rows; any other tool said. */
function toolsFrom(ctx: ConvertContext): { server: string; tool: string }[] {
  const tools: { server: string; tool: string }[] = [];
  for (const tool of ctx.attached('ai_tool')) {
    if (tool.type.endsWith('.toolWorkflow')) {
      const flowTool = workflowTool(ctx, tool);
      if (flowTool) tools.push(flowTool);
      continue;
    }
    if (!tool.type.endsWith('.mcpClientTool')) {
      ctx.problem(
        `its tool "${tool.name}" (n8n's ${SHORT(tool.type)}) has no Flowbench counterpart: an agent's tools are MCP tools; add an MCP server that offers it`,
        { on: tool },
      );
      continue;
    }
    const p = tool.parameters;
    const url = asString(p.endpointUrl) || asString(p.sseEndpoint);
    const server = serverName(tool);
    const include = asString(p.include, 'all');
    const chosen = Array.isArray(p.includeTools) ? p.includeTools.filter((t) => typeof t === 'string') : [];
    ctx.problem(
      `its tools come from the MCP server at ${url || '(no URL)'}: add it in Agents → MCP servers as "${server}"${p.authentication && p.authentication !== 'none' ? ', with its credentials (not carried over)' : ''}`,
      { on: tool, severity: 'warning' },
    );
    if (include === 'selected') {
      tools.push(...chosen.map((name) => ({ server, tool: name })));
      continue;
    }
    ctx.problem(
      `"${tool.name}" gives the agent every tool of its server${include === 'except' ? ' but those it excludes' : ''}; a Flowbench agent names each tool it may call: add them to this node once the server "${server}" is added`,
      { on: tool },
    );
  }
  return tools;
}

/**
 * n8n's Call n8n Workflow Tool as the agent's tool for a published Flowbench
 * flow: the workflow it calls, imported here, has its name as tool name.
 */
function workflowTool(ctx: ConvertContext, tool: N8nNode): { server: string; tool: string } | undefined {
  const p = tool.parameters;
  const named = isRecord(p.workflowId) ? asString(p.workflowId.cachedResultName) : '';
  if (!named) {
    ctx.problem(
      `its tool "${tool.name}" calls an n8n workflow by id (${locatorValue(p.workflowId) || 'none'}): import that workflow, publish it and add it to this node's tools`,
      { on: tool },
    );
    return undefined;
  }
  const name = toolNameFrom(named);
  ctx.problem(
    `its tool "${tool.name}" is the published flow ${name}: import the n8n workflow "${named}" too and publish it${p.description ? "; the flow's tool description is what the model reads, as the tool node's description was" : ''}`,
    { on: tool, severity: 'warning' },
  );
  return { server: FLOWBENCH_SERVER, tool: name };
}

/**
 * A memory sub-node as a per-conversation channel the node reads and writes
 * (each chat of the Chat tab is a conversation, as n8n's session).
 */
function memoryFrom(ctx: ConvertContext): Record<string, unknown> {
  const [memory] = ctx.attached('ai_memory');
  if (!memory) return {};
  const channel = 'chat_memory';
  ctx.channel({ id: channel, perConversation: true });
  const window = memory.parameters.contextWindowLength;
  ctx.problem(
    `it is the per-conversation channel ${channel}: the node reads its last entries and writes its answer there; n8n kept the person's messages too, Flowbench keeps the answers${memory.type.endsWith('.memoryBufferWindow') ? '' : ` (in Flowbench's database, not n8n's ${SHORT(memory.type)})`}`,
    { on: memory, severity: 'warning' },
  );
  const limit = typeof window === 'number' && window >= 1 ? Math.min(1000, Math.round(window)) : 5;
  return { memoryReads: [{ channel, limit }], memoryWrites: [{ channel, mode: 'AGENT_OUTPUT' }] };
}

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
    if (p.hasOutputParser === true || ctx.attached('ai_outputParser').length > 0)
      ctx.problem(
        "its output parser is not carried over: a Flowbench agent answers text; an LLM node's JSON output gives fields",
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

/** A JSON schema for an example value, as n8n's Structured Output Parser derives one ("from JSON example"). */
function schemaFromExample(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaFromExample(value[0]) : {} };
  if (isRecord(value))
    return {
      type: 'object',
      properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaFromExample(v)])),
      required: Object.keys(value),
    };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return value === null ? {} : { type: 'string' };
}

/** The JSON output a chain's Structured Output Parser asks for, or nothing (said) when it cannot be read. */
function jsonOutputFrom(ctx: ConvertContext): Record<string, unknown> {
  const [parser] = ctx.attached('ai_outputParser');
  if (!parser) return {};
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

/** n8n's default system prompt of an Information Extractor. */
const EXTRACTOR_SYSTEM =
  "You are an expert extraction algorithm.\nOnly extract relevant information from the text.\nIf you do not know the value of an attribute asked to extract, you may omit the attribute's value.";

const ATTRIBUTE_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'string',
};

/** The Information Extractor as an LLM node answering JSON of its attributes' schema. */
const informationExtractor: NodeKind = {
  data: (_node, id) => ({ kind: 'answer', nodeId: id, keys: ['output'] }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const type = asString(p.schemaType, 'fromAttributes');
    let schema: Record<string, unknown> | undefined;
    if (type === 'fromAttributes') {
      const attributes = rows(p.attributes, 'attributes');
      schema = {
        type: 'object',
        properties: Object.fromEntries(
          attributes.map((a) => [
            asString(a.name),
            {
              type: ATTRIBUTE_TYPES[asString(a.type, 'string')] ?? 'string',
              ...(a.description ? { description: asString(a.description) } : {}),
            },
          ]),
        ),
        required: attributes.filter((a) => a.required === true).map((a) => asString(a.name)),
      };
    } else {
      try {
        const parsed: unknown = JSON.parse(asString(type === 'manual' ? p.inputSchema : p.jsonSchemaExample));
        if (isRecord(parsed)) schema = type === 'manual' ? parsed : schemaFromExample(parsed);
      } catch {
        schema = undefined;
      }
      if (!schema)
        ctx.problem("its schema is no JSON object: set the JSON output's schema in the inspector", {
          field: 'schemaType',
        });
    }
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['systemPromptTemplate']);
    return {
      type: 'llm',
      config: {
        ...modelFrom(ctx),
        system: ctx.template(options.systemPromptTemplate ?? EXTRACTOR_SYSTEM, 'options.systemPromptTemplate'),
        prompt: ctx.template(p.text ?? '={{ $json.chatInput }}', 'text'),
        outputFormat: 'json',
        ...(schema ? { jsonSchema: schema } : {}),
      },
      read: ['text', 'schemaType', 'attributes', 'jsonSchemaExample', 'inputSchema', 'options'],
    };
  },
};

/**
 * The Text Classifier as an LLM node answering `{ "category": … }`, then a
 * condition a category, in a chain: each category's output leaves from its
 * condition's true port, as n8n routes the item to that category's output
 * (the item handed on unchanged: `$json` after it reads its input).
 */
const textClassifier: NodeKind = {
  data: (_node, _id, input) => input,
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['fallback', 'systemPromptTemplate', 'multiClass']);
    if (options.multiClass === true)
      ctx.problem('it may send to several categories; here the first category the model names takes its branch', {
        field: 'options.multiClass',
      });
    const categories = rows(p.categories, 'categories').map((c) => ({
      name: asString(c.category),
      description: asString(c.description),
    }));
    const other = options.fallback === 'other';
    const names = [...categories.map((c) => c.name), ...(other ? ['other'] : [])];
    const list = categories.map((c) => (c.description ? `${c.name}: ${c.description}` : c.name)).join('\n');
    const system = asString(
      options.systemPromptTemplate,
      "Please classify the text provided by the user into one of the following categories: {categories}, and use the provided formatting instructions below. Don't explain, and only output the json.",
    ).replace('{categories}', names.join(', '));
    const suffix = (i: number) => `category_${i + 1}`;
    const conditions = names.map((name) => ({
      match: 'all',
      rules: [{ value: `{{nodes.${ctx.id}.output.category}}`, path: '$', operator: 'equals', operand: name }],
    }));
    return {
      type: 'llm',
      config: {
        ...modelFrom(ctx),
        system: `${ctx.template(system, 'options.systemPromptTemplate')}\n\n${list}`,
        prompt: ctx.template(p.inputText ?? '={{ $json.chatInput }}', 'inputText'),
        outputFormat: 'json',
        jsonSchema: {
          type: 'object',
          properties: { category: { type: 'string', enum: names } },
          required: ['category'],
        },
      },
      followers: conditions.map((config, i) => ({
        suffix: suffix(i),
        label: `${ctx.node.name}: ${names[i]}`,
        type: 'condition',
        config,
      })),
      inner: conditions.map((_c, i) => ({
        ...(i === 0 ? { port: 'out' } : { from: suffix(i - 1), port: 'false' }),
        to: suffix(i),
      })),
      outputs: names.map((_n, i) => ({ from: suffix(i), port: 'true' })),
      read: ['inputText', 'categories', 'options'],
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
