import type { TokenUsage } from '../model/run';

/** The AI SDK's usage as a step records it: only the counts the provider reported. */
export function usageOf(
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
): TokenUsage | undefined {
  if (!usage) return undefined;
  return {
    ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
  };
}
