import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';

/** A chat completion as an OpenAI-compatible server sends one: what the warm-up's own fetch answers. */
const ANSWER = {
  id: 'warm-up',
  object: 'chat.completion',
  created: 0,
  model: 'warm-up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

/**
 * The AI SDK's first call in a process costs about 80 ms more than the next
 * ones (its code is compiled and its schemas built on first use), and that
 * lands on a flow's first model node. A long-lived server (`flowbench mcp`,
 * `serve`) makes one call of its own while it waits for its first request,
 * answered by a fetch that never leaves the process; nothing is sent anywhere.
 */
export async function warmModelCalls(): Promise<void> {
  const model = createOpenAICompatible({
    name: 'warm-up',
    baseURL: 'http://warm-up.invalid/v1',
    fetch: () =>
      Promise.resolve(new Response(JSON.stringify(ANSWER), { headers: { 'content-type': 'application/json' } })),
  }).chatModel('warm-up');
  await generateText({ model, prompt: 'warm-up' }).catch(() => undefined);
}
