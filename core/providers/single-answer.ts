import type { LanguageModelV3CallOptions, LanguageModelV3Prompt, SharedV3Warning } from '@ai-sdk/provider';
import { createRequire } from 'node:module';
import type { TokenUsage } from '../model/run';
import type { PreparedCall } from './ai-sdk-port';
import { sayWarnings } from './sdk-warnings';
import { usageOf } from './usage';

/** What generateText puts first in the user-agent header (the provider appends its own); `ai` exports no VERSION. */
const AI_SDK_AGENT = `ai/${(createRequire(import.meta.url)('ai/package.json') as { version: string }).version}`;

/**
 * One answer without tools, from the provider's model client itself.
 * generateText sends the same request, wrapped in its step loop, prompt checks
 * and telemetry: on these machines that cost about 1 ms more a call after the
 * model's wait (three branches answered at once wait for each other's), and
 * 50–70 ms more on a process's first call, where its schemas are built. The
 * prompt is the one generateText would send: the system prompt first, then
 * the messages in order, a user's text as one text part; and the user-agent
 * header is the one generateText sends.
 */
export async function singleAnswer(
  call: PreparedCall['call'],
): Promise<{ text: string; usage?: TokenUsage; warnings: SharedV3Warning[]; finishReason: string }> {
  const prompt: LanguageModelV3Prompt = [
    ...(call.system ? [{ role: 'system' as const, content: call.system }] : []),
    ...call.messages.map((message) =>
      message.role === 'system'
        ? { role: 'system' as const, content: message.content }
        : {
            role: 'user' as const,
            content:
              typeof message.content === 'string'
                ? [{ type: 'text' as const, text: message.content }]
                : // An image is a file part of its type, as generateText turns an image part into one.
                  message.content.map((part) =>
                    part.type === 'text'
                      ? part
                      : { type: 'file' as const, data: part.image, mediaType: part.mediaType },
                  ),
          },
    ),
  ];
  const options: LanguageModelV3CallOptions = {
    prompt,
    abortSignal: call.abortSignal,
    headers: { 'user-agent': AI_SDK_AGENT },
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.topP !== undefined ? { topP: call.topP } : {}),
    ...(call.maxOutputTokens !== undefined ? { maxOutputTokens: call.maxOutputTokens } : {}),
  };
  const result = await call.model.doGenerate(options);
  // generateText would have logged these (see sdk-warnings.ts).
  if (result.warnings.length > 0) {
    sayWarnings({ warnings: result.warnings, provider: call.model.provider, model: call.model.modelId });
  }
  let text = '';
  for (const part of result.content) if (part.type === 'text') text += part.text;
  const usage = usageOf({ inputTokens: result.usage.inputTokens.total, outputTokens: result.usage.outputTokens.total });
  return { text, ...(usage ? { usage } : {}), warnings: result.warnings, finishReason: result.finishReason.unified };
}
