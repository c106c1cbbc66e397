import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';

/** A chat completion as an OpenAI-compatible server sends one: what the warm-up's own server answers. */
const ANSWER = {
  id: 'warm-up',
  object: 'chat.completion',
  created: 0,
  model: 'warm-up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

/**
 * The first model call in a process costs about 100 ms more than the next
 * ones: the AI SDK's code is compiled and its schemas built on first use, and
 * Node's HTTP client compiles its parser on its first connection (15 ms more
 * after everything else). That lands on a flow's first model nodes. A
 * long-lived server (`flowbench mcp`, `serve`) makes one call of its own while
 * it waits for its first request, to a server of its own on the loopback
 * interface that lives for that one answer: nothing is sent anywhere else.
 * Resolves with whether that server answered.
 */
export async function warmModelCalls(): Promise<boolean> {
  let isAnswered = false;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      isAnswered = true;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const model = createOpenAICompatible({ name: 'warm-up', baseURL: `http://127.0.0.1:${port}/v1` }).chatModel(
      'warm-up',
    );
    await generateText({ model, prompt: 'warm-up', maxRetries: 0 }).catch(() => undefined);
  } catch {
    // A warm-up that cannot listen changes nothing but the first call's time.
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return isAnswered;
}
