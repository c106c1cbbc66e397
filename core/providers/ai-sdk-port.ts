import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { FlowbenchError } from '../model/errors';
import { jsonInstruction, type LlmPort, type LlmRequest, type LlmResponse, type ModelUse } from '../model/llm';
import type { LlmMessage } from '../model/run';
import { imagesNote, promptImages } from '../model/prompt-images';
import { needsKey, providerApiKey, providerUrl, type ProviderConfig } from '../model/provider-config';
import { httpFetch } from './http-fetch';
import { runAgentLoop } from './agent-loop';
import { modelAnswer } from './model-answer';
import { missingKey } from './key-errors';
import { nameModel, routeSdkWarnings } from './sdk-warnings';

// The model library's loader calls it with the library (model-library.ts).
export { loadFetchClasses } from './http-fetch';

/** A part of a user message as the AI SDK takes it: text, or an image's base64 and type. */
export type UserPart = { type: 'text'; text: string } | { type: 'image'; image: string; mediaType: string };

/** Finds a provider's settings by name ('' for the default); throws PROVIDER_NOT_FOUND. */
export type ProviderResolver = (name: string) => ProviderConfig;

routeSdkWarnings();

// Model clients are reused across calls while the provider's settings stay the same.
const modelCache = new Map<string, LanguageModelV3>();

function cachedModel(config: ProviderConfig, model: string, env: NodeJS.ProcessEnv): LanguageModelV3 {
  const key = JSON.stringify([config, model, providerApiKey(config, env)]);
  let cached = modelCache.get(key);
  if (!cached) {
    if (modelCache.size > 100) modelCache.clear();
    cached = languageModel(config, model, env);
    nameModel(cached, config.name);
    modelCache.set(key, cached);
  }
  return cached;
}

function languageModel(config: ProviderConfig, model: string, env: NodeJS.ProcessEnv): LanguageModelV3 {
  const apiKey = providerApiKey(config, env);
  const baseURL = providerUrl(config);
  switch (config.kind) {
    case 'openai-compatible':
      return createOpenAICompatible({
        name: config.name,
        baseURL,
        includeUsage: true,
        fetch: httpFetch,
        ...(apiKey ? { apiKey } : {}),
      }).chatModel(model);
    case 'openai':
      return createOpenAI({ baseURL, fetch: httpFetch, ...(apiKey ? { apiKey } : {}) }).chat(model);
    case 'anthropic':
      return createAnthropic({ baseURL, fetch: httpFetch, ...(apiKey ? { apiKey } : {}) })(model);
  }
}

/** A request resolved against its provider: the model client, the prompts as sent, and the sampling options. */
export interface PreparedCall {
  config: ProviderConfig;
  model: string;
  url: string;
  secrets: (string | undefined)[];
  system: string | undefined;
  userPrompt: string;
  /** The messages as sent, for the run record. */
  messages: LlmMessage[];
  call: {
    model: LanguageModelV3;
    system?: string;
    /**
     * The user messages (a node's memory, then its prompt), text or text and
     * the images it carried (prompt-images.ts), or a system-only request's one system message.
     */
    messages: ({ role: 'user'; content: string | UserPart[] } | { role: 'system'; content: string })[];
    allowSystemInMessages?: boolean;
    maxRetries: 0;
    abortSignal: AbortSignal;
    temperature?: number;
    topP?: number;
    maxOutputTokens?: number;
  };
}

/** Resolves the provider and model, and builds the prompts exactly as they are sent. */
export function prepareCall(
  resolve: ProviderResolver,
  env: NodeJS.ProcessEnv,
  request: Omit<LlmRequest, 'outputFormat'> & { outputFormat?: LlmRequest['outputFormat'] },
): PreparedCall {
  const config = resolve(request.provider);
  const apiKey = providerApiKey(config, env);
  if (!apiKey && needsKey(config)) throw missingKey(config, providerUrl(config));
  const model = request.model || config.defaultModel;
  if (!model) {
    throw new FlowbenchError(
      'MODEL_NOT_SET',
      `no model chosen, and provider "${config.name}" has no default model (set one with \`flowbench providers set ${config.name} --default-model …\`)`,
    );
  }
  // A step defined by its system prompt alone (seed 003's CustomLLM, a seed 004 step without
  // parameters) sends it as the system message, as those runtimes do. Anthropic's Messages API
  // needs a user turn, so there it goes as the user message (the run record shows which).
  const isSystemOnly = !request.prompt.trim() && !request.context?.length && Boolean(request.system?.trim());
  const needsUserTurn = isSystemOnly && config.kind === 'anthropic';
  const userPrompt = needsUserTurn ? (request.system ?? '') : request.prompt;
  const baseSystem = needsUserTurn ? undefined : request.system;
  const system =
    request.outputFormat === 'json'
      ? [baseSystem, jsonInstruction(request.jsonSchema)].filter(Boolean).join('\n\n')
      : baseSystem || undefined;
  const userTexts = isSystemOnly && !needsUserTurn ? [] : [...(request.context ?? []), userPrompt];
  const split = userTexts.map(promptImages);
  const userMessages = split.map(({ text, images }) => ({
    role: 'user' as const,
    content:
      images.length === 0
        ? text
        : [
            { type: 'text' as const, text },
            ...images.map((image) => ({ type: 'image' as const, image: image.data, mediaType: image.mediaType })),
          ],
  }));
  // Recorded as text: the placeholders, then what each image was (its bytes are in the step that made it).
  const recorded = split.map(({ text, images }) => ({
    role: 'user' as const,
    content: images.length === 0 ? text : `${text}\n\n${imagesNote(images)}`,
  }));
  return {
    config,
    model,
    url: providerUrl(config),
    secrets: [apiKey],
    system,
    userPrompt,
    messages: [...(system ? [{ role: 'system' as const, content: system }] : []), ...recorded],
    call: {
      model: cachedModel(config, model, env),
      // Without a user message the system prompt travels as the conversation's one message.
      ...(system && userMessages.length > 0 ? { system } : {}),
      messages: userMessages.length > 0 ? userMessages : [{ role: 'system', content: system ?? '' }],
      // That system message is the flow author's own prompt, not text from a run's input: no injection warning.
      ...(userMessages.length > 0 ? {} : { allowSystemInMessages: true }),
      maxRetries: 0,
      abortSignal: request.signal as AbortSignal,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
    },
  };
}

/** The AI SDK's port, which can also build a model's client ahead of its first call. */
export interface AiSdkPort extends LlmPort {
  /** Builds the client a call of this provider and model builds (and keeps); sends nothing. Throws as a call would. */
  prepare(use: ModelUse): void;
}

/**
 * Model calls through the AI SDK. Retries are the engine's (recorded as
 * attempts), so the SDK's own are off; streamed text reaches `onToken`.
 */
export function createAiSdkPort(resolve: ProviderResolver, env: NodeJS.ProcessEnv = process.env): AiSdkPort {
  return {
    prepare(use) {
      const config = resolve(use.provider);
      const model = use.model || config.defaultModel;
      if (model) cachedModel(config, model, env);
    },
    async generate(request: LlmRequest): Promise<LlmResponse> {
      const prepared = prepareCall(resolve, env, request);
      // The answer's text, and its usage and warnings where it has them.
      const answer = await modelAnswer(prepared, request, prepared.call);
      const messages: LlmMessage[] = [...prepared.messages, { role: 'assistant', content: answer.text }];
      return { ...answer, messages, provider: prepared.config.name, model: prepared.model };
    },
    runAgent: (request) => runAgentLoop(prepareCall(resolve, env, request), request),
  };
}
