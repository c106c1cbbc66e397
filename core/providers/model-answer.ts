import { generateText, streamText } from 'ai';
import type { LlmRequest } from '../model/llm';
import type { TokenUsage } from '../model/run';
import type { PreparedCall } from './ai-sdk-port';
import { providerError } from './provider-errors';
import { collectWarnings } from './sdk-warnings';
import { singleAnswer } from './single-answer';
import { usageOf } from './usage';

/**
 * The model's final answer and the tokens used over every step: streamed
 * (text to `onToken` as it comes) when the provider streams and someone
 * watches, else one plain request. `options` is the call, with tools for
 * an agent's loop. Provider failures become Flowbench's error codes; what
 * the provider said it did not honour comes back as `warnings`.
 */
export async function modelAnswer(
  prepared: PreparedCall,
  request: Pick<LlmRequest, 'signal' | 'onToken'>,
  options: Parameters<typeof generateText>[0],
): Promise<{ text: string; usage?: TokenUsage; warnings?: string[] }> {
  const { result, warnings } = await collectWarnings(() => answer(prepared, request, options));
  return { ...result, ...(warnings.length > 0 ? { warnings } : {}) };
}

async function answer(
  prepared: PreparedCall,
  request: Pick<LlmRequest, 'signal' | 'onToken'>,
  options: Parameters<typeof generateText>[0],
): Promise<{ text: string; usage?: TokenUsage }> {
  let text = '';
  let usage: TokenUsage | undefined;
  try {
    if (prepared.config.streaming && request.onToken) {
      const result = streamText({ ...(options as Parameters<typeof streamText>[0]), onError: () => undefined });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          text += part.text;
          request.onToken(part.text);
        } else if (part.type === 'start-step') {
          // An agent's earlier turns ended in tool calls: its answer is the last turn's text.
          text = '';
        } else if (part.type === 'error') {
          throw part.error;
        } else if (part.type === 'finish') {
          usage = usageOf(part.totalUsage);
        }
      }
    } else if (options === prepared.call) {
      // The call exactly as prepared (an LLM node's): one request to the provider's client.
      ({ text, usage } = await singleAnswer(prepared.call));
      request.onToken?.(text);
    } else {
      // Anything added to it (an agent's tools and turns) is run by the SDK's loop.
      const result = await generateText(options);
      text = result.text;
      usage = usageOf(result.totalUsage);
      request.onToken?.(text);
    }
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    throw providerError(error, prepared.config, prepared.url, prepared.secrets);
  }
  return { text, ...(usage ? { usage } : {}) };
}
