import { FLOWBENCH_SERVER } from '../model/tools';
import { asString, isRecord, toolNameFrom } from './shared';
import { locatorValue, optionsLeftOut, type ConvertContext, type N8nNode } from './n8n-model';

/**
 * What n8n attaches to an AI node as sub-nodes (its chat model, tools,
 * memory), as the settings of the Flowbench node it is folded into; what a
 * sub-node has that Flowbench cannot take (a credential, a non-MCP tool) is
 * said on it.
 */

export const SHORT = (type: string) => type.slice(type.lastIndexOf('.') + 1);

/** The model of the chat-model sub-node, with its sampling options, on the default provider (said). */
export function modelFrom(ctx: ConvertContext): Record<string, unknown> {
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
export function toolsFrom(ctx: ConvertContext): { server: string; tool: string }[] {
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
      url
        ? `its tools come from the MCP server at ${url}: add it as "${server}" (Agents → MCP servers, or \`flowbench servers add ${server} --url ${url}\`)${p.authentication && p.authentication !== 'none' ? ', with the header its credential sent (not carried over)' : ''}`
        : `its MCP server has no URL: add the server as "${server}" (Agents → MCP servers)`,
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
export function memoryFrom(ctx: ConvertContext): Record<string, unknown> {
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

/** A JSON schema for an example value, as n8n's Structured Output Parser derives one ("from JSON example"). */
export function schemaFromExample(value: unknown): Record<string, unknown> {
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
