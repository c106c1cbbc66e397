import type { SharedV3Warning } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import type { LlmRequest, LlmResponse } from '../model/llm';
import type { TokenUsage } from '../model/run';
import type { PreparedCall } from './ai-sdk-port';
import { providerError } from './provider-errors';
import { describeWarnings } from './sdk-warnings';
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
): Promise<{ text: string; usage?: TokenUsage; warnings?: string[]; stopped?: LlmResponse['stopped'] }> {
  const { warnings, finishReason, ...result } = await answer(prepared, request, options);
  const stopped = STOPS[finishReason];
  // Said with the provider's warnings: the step shows them, and a cut answer is not taken for a whole one.
  const said = [...describeWarnings(warnings), ...(stopped ? [stopped] : [])];
  return {
    ...result,
    ...(said.length > 0 ? { warnings: said } : {}),
    ...(finishReason === 'length' || finishReason === 'content-filter' ? { stopped: finishReason } : {}),
  };
}

const STOPS: Record<string, string | undefined> = {
  length: "the answer stopped at the token limit, so it may be cut short (Max tokens, or the model's own limit)",
  'content-filter': "the provider's content filter stopped the answer",
};

async function answer(
  prepared: PreparedCall,
  request: Pick<LlmRequest, 'signal' | 'onToken'>,
  options: Parameters<typeof generateText>[0],
): Promise<{ text: string; usage?: TokenUsage; warnings: SharedV3Warning[]; finishReason: string }> {
  let text = '';
  let usage: TokenUsage | undefined;
  let finishReason = '';
  // What the provider said it did not honour, at each of the call's steps.
  const warnings: SharedV3Warning[] = [];
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
          warnings.push(...part.warnings);
        } else if (part.type === 'error') {
          throw part.error;
        } else if (part.type === 'finish') {
          usage = usageOf(part.totalUsage);
          finishReason = part.finishReason;
        }
      }
    } else if (options === prepared.call) {
      // The call exactly as prepared (an LLM node's): one request to the provider's client.
      const single = await singleAnswer(prepared.call);
      ({ text, usage, finishReason } = single);
      warnings.push(...single.warnings);
      request.onToken?.(text);
    } else {
      // Anything added to it (an agent's tools and turns) is run by the SDK's loop.
      const result = await generateText(options);
      text = result.text;
      finishReason = result.finishReason;
      for (const step of result.steps) warnings.push(...(step.warnings ?? []));
      usage = usageOf(result.totalUsage);
      request.onToken?.(text);
    }
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    throw providerError(error, prepared.config, prepared.url, prepared.secrets);
  }
  return { text, ...(usage ? { usage } : {}), warnings, finishReason };
}
