import { z } from 'zod';
import { agentSettingsShape, type AgentSettings } from '../../model/agents';
import { defineNode, preview } from '../define-node';
import {
  MEMORY_EDITOR,
  MemoryReadSchema,
  MemoryWriteSchema,
  MODEL_PORTS,
  modelCallEditor,
  samplingOf,
  emptyPromptProblems,
  promptsEmpty,
  promptSummary,
} from '../shared-config';
import { runAgent } from './run-agent';
import { namelessProblems, toolCallee } from '../shared-arguments';

const AgentConfigSchema = z.lazy(() =>
  z.object({
    ...agentSettingsShape(),
    /** As the library's, but a row just added may name no tool yet (a NODE_SETUP problem until it does). */
    tools: z
      .array(z.object({ server: z.string().max(128).default(''), tool: z.string().max(128).default('') }))
      .max(200)
      .default([]),
    /** The task: the user message the loop starts from. */
    prompt: z.string().max(200_000).default(''),
    /**
     * A published agent version of the library: its settings apply, and the
     * node's own provider, model, system prompt, sampling and tools replace
     * them where the node sets them.
     */
    agentVersionId: z.string().max(200).optional(),
    /** Memory channels read before the call and written after it (seed 004's memoryReads / memoryWrites). */
    memoryReads: z.array(MemoryReadSchema).optional(),
    memoryWrites: z.array(MemoryWriteSchema).optional(),
  }),
);
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** The settings a run uses: the agent version's, with what the node sets on top. */
export function effectiveSettings(config: AgentConfig, version: AgentSettings | undefined): AgentSettings {
  if (!version) return config;
  return {
    ...version,
    provider: config.provider || version.provider,
    model: config.model || version.model,
    system: config.system || version.system,
    tools: config.tools.length > 0 ? config.tools : version.tools,
    ...samplingOf(config),
  };
}

/** A model with tools from MCP servers, looping over tool calls until it answers. */
export const agentNode = defineNode({
  type: 'agent',
  runsForEach: true,
  version: 1,
  label: 'Agent',
  category: 'ai',
  icon: 'agent',
  description: 'Lets a model call MCP tools in a loop, up to a step limit.',
  ...MODEL_PORTS,
  configSchema: AgentConfigSchema,
  defaults: () => AgentConfigSchema.parse({}),
  editor: [
    {
      key: 'agentVersionId',
      label: 'Library agent',
      kind: 'text',
      help: 'a published agent version (Agents screen); the fields below override it where set',
      suggest: 'agents',
    },
    ...modelCallEditor('Task'),
    {
      key: 'tools',
      label: 'Tools',
      kind: 'list',
      choose: 'tools',
      help: 'server empty: looked up by name on every connected server; server “flowbench”: a published flow',
      itemFields: [
        { key: 'server', label: 'Server', kind: 'text', suggest: 'servers' },
        { key: 'tool', label: 'Tool', kind: 'text', suggest: 'tools' },
      ],
    },
    { key: 'maxSteps', label: 'Max steps', kind: 'number', min: 1, max: 100, step: 1 },
    {
      key: 'toolErrors',
      label: 'When a tool call fails',
      kind: 'select',
      options: ['fail', 'tell_model'],
      optionLabels: { fail: 'fail the step', tell_model: 'tell the model and go on' },
    },
    { key: 'toolTimeoutMs', label: 'Tool time limit (ms)', kind: 'number', min: 100, step: 100 },
    { key: 'temperature', label: 'Temperature', kind: 'number', min: 0, max: 2, step: 0.1 },
    ...MEMORY_EDITOR,
  ],
  templates: (config) => [
    { field: 'system', text: config.system },
    { field: 'prompt', text: config.prompt },
  ],
  publishWarnings: (config) =>
    promptsEmpty(config) && config.agentVersionId === undefined
      ? ['its task is empty: the agent is given nothing to do']
      : [],
  fillEmptyText: (config, reference) => (config.prompt.trim() === '' ? { ...config, prompt: reference } : undefined),
  // A library agent brings its own prompts.
  check: (config) => [
    ...(config.agentVersionId === undefined ? emptyPromptProblems(config, 'gives the agent nothing to do') : []),
    ...namelessProblems(
      config.tools.map((t) => ({ name: t.tool })),
      'tools',
      'tool',
      'tool',
    ),
  ],
  // With a library agent the provider and model may be the version's, read at the run.
  models: (config) => (config.agentVersionId === undefined ? [{ provider: config.provider, model: config.model }] : []),
  calls: (config) => [
    ...(config.agentVersionId
      ? [{ kind: 'agent' as const, versionId: config.agentVersionId, field: 'config.agentVersionId' }]
      : []),
    ...config.tools.flatMap((t, i) => toolCallee(t.server, t.tool, `config.tools.${i}.tool`)),
  ],
  summary: (config) =>
    config.agentVersionId !== undefined && config.tools.length === 0
      ? `library agent · ${preview(config.prompt, 50) || 'its own prompts'}`
      : `${config.tools.length} tool${config.tools.length === 1 ? '' : 's'} · ${promptSummary(config, 50)}`,
  execute: (ctx, config) => runAgent(ctx, config),
});
