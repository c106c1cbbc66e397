import { z } from 'zod';
import { ChannelNameSchema } from '../model/memory';
import type { NodeConfigProblem } from '../model/node-catalogue';
import type { LlmResponse } from '../model/llm';
import { preview, type StepDetails } from './define-node';

/** Which model a model-calling node uses, and its two prompts. */
export const modelCallShape = () => ({
  /** Provider name from settings; empty means the default provider. */
  provider: z.string().max(128).default(''),
  model: z.string().max(256).default(''),
  system: z.string().max(200_000).default(''),
  prompt: z.string().max(200_000).default(''),
});

/**
 * A model-calling node with neither prompt sends the model nothing (a system
 * prompt alone is a whole request: it goes as the one message, see prepareCall).
 */
export const promptsEmpty = (config: { system: string; prompt: string }): boolean =>
  config.prompt.trim() === '' && config.system.trim() === '';

/**
 * What a model-calling node's card shows of its prompts: the user prompt, else
 * the system prompt (a whole request on its own), else that there is none yet.
 */
export function promptSummary(config: { system: string; prompt: string }, max: number): string {
  if (config.prompt.trim() !== '') return preview(config.prompt, max);
  if (config.system.trim() !== '') return `system: ${preview(config.system, max - 8)}`;
  return 'no prompt yet';
}

/** The editor's warning on such a node; `what` says what it then does. */
export function emptyPromptProblems(config: { system: string; prompt: string }, what: string): NodeConfigProblem[] {
  if (!promptsEmpty(config)) return [];
  return [{ code: 'EMPTY_PROMPT', severity: 'warning', message: `${what}: write a prompt`, field: 'config.prompt' }];
}

/** The ports of nodes that call something (a model, a tool, a flow): its result, and the branch taken when the call fails. */
export const callPorts = (resultLabel: string) => ({
  inputs: [{ id: 'in', label: 'in', kind: 'data' as const }],
  outputs: [
    { id: 'out', label: resultLabel, kind: 'data' as const },
    { id: 'error', label: 'on error', kind: 'error' as const },
  ],
});

/** The ports of model-calling nodes. */
export const MODEL_PORTS = callPorts('answer');

/** Editor hints for the fields of modelCallShape; `promptLabel` names the user prompt. */
export function modelCallEditor(promptLabel: string) {
  return [
    {
      key: 'provider' as const,
      label: 'Provider',
      kind: 'text' as const,
      help: 'empty: the default provider',
      suggest: 'providers' as const,
    },
    {
      key: 'model' as const,
      label: 'Model',
      kind: 'text' as const,
      help: "empty: the provider's default model",
      suggest: 'models' as const,
    },
    { key: 'system' as const, label: 'System prompt', kind: 'template' as const },
    { key: 'prompt' as const, label: promptLabel, kind: 'template' as const },
  ];
}

/** The sampling options a config sets, and only those (the provider's defaults apply to the rest). */
export function samplingOf(config: {
  temperature?: number | undefined;
  topP?: number | undefined;
  maxTokens?: number | undefined;
}) {
  return {
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
  };
}

/** Sampling options shared by model-calling nodes (seed 004's step overrides). */
export const modelOptionsShape = () => ({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
});

/** Editor hints for a model-calling node's memory reads and writes. */
export const MEMORY_EDITOR = [
  {
    key: 'memoryReads' as const,
    label: 'Memory reads',
    kind: 'list' as const,
    help: "the last entries of each channel are sent before the prompt; the flow's Memory section shows them",
    itemFields: [
      { key: 'channel' as const, label: 'Channel', kind: 'text' as const, initial: 'memory' },
      { key: 'limit' as const, label: 'Last entries', kind: 'number' as const, min: 1, max: 1000, initial: 10 },
    ],
  },
  {
    key: 'memoryWrites' as const,
    label: 'Memory writes',
    kind: 'list' as const,
    help: 'appended when the node succeeds; kept across runs',
    itemFields: [
      { key: 'channel' as const, label: 'Channel', kind: 'text' as const, initial: 'memory' },
      {
        key: 'mode' as const,
        label: 'Writes',
        kind: 'select' as const,
        options: ['AGENT_OUTPUT', 'STATIC'],
        optionLabels: { AGENT_OUTPUT: 'the answer', STATIC: 'a fixed value' },
      },
      {
        key: 'payload' as const,
        label: 'Fixed value (text or JSON)',
        kind: 'value' as const,
        shownWhen: { key: 'mode', is: ['STATIC'] },
      },
    ],
  },
];

/** Reads the last `limit` entries of a memory channel into the prompt context. */
export const MemoryReadSchema = z.lazy(() =>
  z.object({
    channel: ChannelNameSchema,
    limit: z.number().int().min(1).max(1000).default(10),
  }),
);

/** Writes the node's answer (AGENT_OUTPUT) or a fixed payload (STATIC) to a channel. */
export const MemoryWriteSchema = z.lazy(() =>
  z.object({
    channel: ChannelNameSchema,
    mode: z.enum(['AGENT_OUTPUT', 'STATIC']),
    payload: z.json().optional(),
  }),
);

/** What a model call adds to its node's step: the messages, the tokens used, what the provider did not honour. */
export const modelCallDetails = (response: LlmResponse): StepDetails => ({
  messages: response.messages,
  ...(response.usage ? { usage: response.usage } : {}),
  ...(response.warnings ? { warnings: response.warnings } : {}),
});
