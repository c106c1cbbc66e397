import { describe, expect, it, vi } from 'vitest';
import { startOpenAiServer } from '../../tests/helpers/openai-server';

// The first request and the warm-up happen once in a process: this file reads its own copy of the
// modules, whatever the files run before it in this test worker did with theirs.
vi.resetModules();
const { firstRequestSent, httpFetch } = await import('../providers/http-fetch');
const { warmModelCallsAfterFirstRequest } = await import('./model-warm-up');

describe('the warm-up of a process that calls a model (warmModelCallsAfterFirstRequest)', () => {
  it('starts once the first model request has been written, and runs while its answer is awaited', async () => {
    let answered = false;
    const server = await startOpenAiServer(() => ({ content: 'late', delayMs: 1500 }));
    try {
      let sent = false;
      void firstRequestSent.then(() => (sent = true));
      const warming = warmModelCallsAfterFirstRequest();
      expect(warmModelCallsAfterFirstRequest()).toBe(warming);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(sent).toBe(false);

      const answer = httpFetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      }).then(async (response) => {
        answered = true;
        return (await response.json()) as { choices: { message: { content: string } }[] };
      });
      await firstRequestSent;
      // Written, and its answer still to come (the server waits 1.5 s).
      expect(answered).toBe(false);
      // The warm-up ran meanwhile: its own calls, answered by its own loopback server.
      expect(await warming).toBeGreaterThanOrEqual(1);
      expect(server.requests).toHaveLength(1);
      expect((await answer).choices[0]?.message.content).toBe('late');
    } finally {
      await server.close();
    }
  });
});
