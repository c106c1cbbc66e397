import { z } from 'zod';
import { toolLabel } from '../../model/tools';
import { schemaProperties } from '../../model/schema-shape';
import { callPorts } from '../shared-config';
import { defineNode } from '../define-node';
import { findCallee, recordedToolCall } from '../tool-call';
import {
  NamedValueSchema,
  namedValuesEditor,
  namelessProblems,
  toolCallee,
  typedValue,
  unchosen,
} from '../shared-arguments';

const McpToolConfigSchema = z.lazy(() =>
  z.object({
    /** A connected server; empty: the tool is looked up by name on every server. */
    server: z.string().max(128).default(''),
    tool: z.string().max(128).default(''),
    arguments: z.array(NamedValueSchema).max(200).default([]),
  }),
);

/** Calls one tool of a connected MCP server with templated arguments; no model involved. */
export const mcpToolNode = defineNode({
  type: 'mcp_tool',
  runsForEach: true,
  version: 1,
  label: 'MCP tool',
  category: 'ai',
  icon: 'tool',
  description:
    'Calls one tool of a connected MCP server, or a published flow (server “flowbench”); its result is the output.',
  ...callPorts('result'),
  configSchema: McpToolConfigSchema,
  defaults: () => McpToolConfigSchema.parse({}),
  editor: [
    {
      key: 'server',
      label: 'Server',
      kind: 'text',
      suggest: 'servers',
      help: 'empty: any connected server; “flowbench”: a published flow',
    },
    { key: 'tool', label: 'Tool', kind: 'text', suggest: 'tools' },
    {
      key: 'arguments',
      ...namedValuesEditor(
        'Arguments',
        'numbers, booleans and JSON are read as the tool’s schema asks; empty is null where it takes null',
      ),
    },
  ],
  templates: (config) => config.arguments.map((a, i) => ({ field: `arguments.${i}.value`, text: a.value })),
  summary: (config) => (config.tool ? toolLabel(config) : 'no tool chosen'),
  check: (config) => [
    ...unchosen(config.tool, 'MISSING_TOOL', 'choose the tool this node calls', 'config.tool'),
    ...namelessProblems(config.arguments, 'arguments', 'argument'),
  ],
  returnsCallee: true,
  calls: (config) => toolCallee(config.server, config.tool, 'config.tool', { key: 'arguments', label: 'Arguments' }),
  execute: async (ctx, config) => {
    const info = await findCallee(ctx, config.server, config.tool, ctx.signal);
    const properties = new Map(schemaProperties(info.inputSchema));
    const args = Object.fromEntries(
      config.arguments.map((a) => [a.name, typedValue(ctx.resolve(a.value), properties.get(a.name), info.inputSchema)]),
    );
    ctx.report({ input: args });
    const called = await recordedToolCall(ctx, info, args, {
      id: `${ctx.nodeId}-1`,
      signal: ctx.signal,
      onChildRun: (runId) => ctx.report({ childRunId: runId }),
    });
    return { kind: 'output', output: called.output };
  },
});
