import { z } from 'zod';
import { defineNode, preview } from '../define-node';
import { MODEL_PORTS, modelCallShape, modelCallEditor, modelOptionsShape } from '../shared-config';

const ToolRefSchema = z.lazy(() =>
  z.object({
    /** Name of a registered MCP server, or `flowbench` for other flows. */
    server: z.string().min(1).max(128),
    tool: z.string().min(1).max(128),
  }),
);

const AgentConfigSchema = z.lazy(() =>
  z.object({
    ...modelCallShape(),
    ...modelOptionsShape(),
    tools: z.array(ToolRefSchema).default([]),
    /** Upper bound on model turns in the tool-use loop. */
    maxSteps: z.number().int().min(1).max(100).default(8),
  }),
);

/** A model with tools from MCP servers, looping over tool calls until it answers. */
export const agentNode = defineNode({
  type: 'agent',
  version: 1,
  label: 'Agent',
  category: 'ai',
  icon: 'agent',
  description: 'Lets a model call MCP tools in a loop, up to a step limit.',
  ...MODEL_PORTS,
  configSchema: AgentConfigSchema,
  defaults: () => AgentConfigSchema.parse({}),
  editor: [
    ...modelCallEditor('Task'),
    {
      key: 'tools',
      label: 'Tools',
      kind: 'list',
      itemFields: [
        { key: 'server', label: 'Server', kind: 'text' },
        { key: 'tool', label: 'Tool', kind: 'text' },
      ],
    },
    { key: 'maxSteps', label: 'Max steps', kind: 'number', min: 1, max: 100, step: 1 },
    { key: 'temperature', label: 'Temperature', kind: 'number', min: 0, max: 2, step: 0.1 },
  ],
  templates: (config) => [
    { field: 'system', text: config.system },
    { field: 'prompt', text: config.prompt },
  ],
  publishWarnings: (config) =>
    config.prompt.trim() === '' ? ['its task is empty: the agent is given nothing to do'] : [],
  fillEmptyText: (config, reference) => (config.prompt.trim() === '' ? { ...config, prompt: reference } : undefined),
  summary: (config) =>
    `${config.tools.length} tool${config.tools.length === 1 ? '' : 's'} · ${preview(config.prompt, 50)}`,
});
