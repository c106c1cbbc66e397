import { z } from 'zod';
import { defineNode } from '../define-node';
import { parseJsonAnswer } from './json-output';
import { memoryMessages, writeMemory } from '../node-memory';
import {
  MEMORY_EDITOR,
  MemoryReadSchema,
  MemoryWriteSchema,
  MODEL_PORTS,
  modelCallDetails,
  modelCallShape,
  modelCallEditor,
  modelOptionsShape,
  samplingOf,
  emptyPromptProblems,
  promptsEmpty,
  promptSummary,
} from '../shared-config';

const LlmConfigSchema = z.lazy(() =>
  z.object({
    ...modelCallShape(),
    ...modelOptionsShape(),
    outputFormat: z.enum(['text', 'json']).default('text'),
    /** JSON Schema the answer must satisfy when outputFormat is json. */
    jsonSchema: z.record(z.string(), z.json()).optional(),
    /** Seed 004: the agent version a step ran; Flowbench needs a provider and model instead. */
    agentVersionId: z.string().max(200).optional(),
    memoryReads: z.array(MemoryReadSchema).optional(),
    memoryWrites: z.array(MemoryWriteSchema).optional(),
  }),
);

/** One model call: system and user prompt templates in, text or JSON out. */
export const llmNode = defineNode({
  type: 'llm',
  runsForEach: true,
  version: 1,
  label: 'LLM',
  category: 'ai',
  icon: 'model',
  description: 'Calls a model once with a system and a user prompt.',
  ...MODEL_PORTS,
  configSchema: LlmConfigSchema,
  defaults: () => LlmConfigSchema.parse({}),
  editor: [
    ...modelCallEditor('Prompt'),
    { key: 'temperature', label: 'Temperature', kind: 'number', min: 0, max: 2, step: 0.1 },
    { key: 'topP', label: 'Top P', kind: 'number', min: 0, max: 1, step: 0.05 },
    { key: 'maxTokens', label: 'Max tokens', kind: 'number', min: 1, step: 1 },
    { key: 'outputFormat', label: 'Output', kind: 'select', options: ['text', 'json'] },
    { key: 'jsonSchema', label: 'JSON schema', kind: 'json', help: 'for JSON output' },
    ...MEMORY_EDITOR,
  ],
  templates: (config) => [
    { field: 'system', text: config.system },
    { field: 'prompt', text: config.prompt },
  ],
  summary: (config) => `${config.model || 'default model'} · ${promptSummary(config, 60)}`,
  publishWarnings: (config) =>
    promptsEmpty(config) ? ['its prompt and system prompt are empty: the model is sent no question'] : [],
  fillEmptyText: (config, reference) => (config.prompt.trim() === '' ? { ...config, prompt: reference } : undefined),
  outputSchema: (config) => (config.outputFormat === 'json' ? config.jsonSchema : undefined),
  check: (config) => [
    ...(config.agentVersionId !== undefined && !config.model
      ? [
          {
            code: 'UNRESOLVED_AGENT' as const,
            severity: 'error' as const,
            message: `ran agent version ${config.agentVersionId}, which Flowbench cannot resolve; choose a provider and model for it`,
            field: 'config.model',
          },
        ]
      : []),
    ...emptyPromptProblems(config, 'sends the model nothing'),
  ],
  models: (config) => [{ provider: config.provider, model: config.model }],
  execute: async (ctx, config) => {
    const system = ctx.render(config.system);
    const prompt = ctx.render(config.prompt);
    const memory = memoryMessages(ctx, config.memoryReads);
    ctx.report({ input: { system, prompt, ...(memory.length > 0 ? { memory } : {}) } });
    const response = await ctx.llm.generate({
      provider: config.provider,
      model: config.model,
      system,
      prompt,
      ...(memory.length > 0 ? { context: memory } : {}),
      ...samplingOf(config),
      outputFormat: config.outputFormat,
      ...(config.jsonSchema !== undefined ? { jsonSchema: config.jsonSchema } : {}),
      signal: ctx.signal,
      ...(ctx.streamsTokens ? { onToken: (text: string) => ctx.emitToken(text) } : {}),
    });
    ctx.report(modelCallDetails(response));
    const output =
      config.outputFormat === 'text'
        ? response.text
        : await parseJsonAnswer(response.text, config.jsonSchema, `node "${ctx.nodeId}"`, response.stopped);
    writeMemory(ctx, config.memoryWrites, output);
    return { kind: 'output', output };
  },
});
