import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { testLlm } from '../../../tests/helpers/llm';
import { startOpenAiServer, type OpenAiServer } from '../../../tests/helpers/openai-server';
import { llmNode } from './definition';
import { TINY_PNG_BASE64 } from '../../../tests/helpers/images';

let server: OpenAiServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(() => server.close());

describe('llm node', () => {
  it('defaults to the default provider and model, text output, empty prompts', () => {
    expect(llmNode.defaults()).toEqual({ provider: '', model: '', system: '', prompt: '', outputFormat: 'text' });
  });

  it('sends its rendered prompts to the provider and answers with the streamed text', async () => {
    server.reply = () => ({ chunks: ['Sea ', 'otters.'] });
    const ctx = nodeContext({ inputs: { topic: 'otters' }, llm: testLlm(server.url) });
    const config = llmNode.configSchema.parse({
      system: 'Be brief.',
      prompt: 'About {{inputs.topic}}',
      temperature: 0.2,
    });
    const outcome = await llmNode.execute?.(ctx, config);
    expect(outcome).toEqual({ kind: 'output', output: 'Sea otters.' });
    expect(server.requests[0]?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'About otters' },
    ]);
    expect(server.requests[0]?.body.temperature).toBe(0.2);
    expect(ctx.tokens.join('')).toBe('Sea otters.');
    expect(ctx.reported[0]).toEqual({ input: { system: 'Be brief.', prompt: 'About otters' } });
  });

  it('sends an image a reference put in its prompt as an image beside the text, streamed or not; the run records a placeholder', async () => {
    const config = llmNode.configSchema.parse({ prompt: 'What is in {{inputs.photo}}? One word.' });
    for (const streamsTokens of [true, false]) {
      server.requests.length = 0;
      server.reply = () => ({ content: 'A dot.' });
      const ctx = {
        ...nodeContext({ inputs: { photo: `data:image/png;base64,${TINY_PNG_BASE64}` }, llm: testLlm(server.url) }),
        streamsTokens,
      };
      expect(await llmNode.execute?.(ctx, config)).toEqual({ kind: 'output', output: 'A dot.' });
      // As the OpenAI API takes a picture: an image_url part of its data: URL, after the text.
      expect(server.requests[0]?.body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in [image 1]? One word.' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG_BASE64}` } },
          ],
        },
      ]);
      expect(ctx.reported.at(-1)?.messages?.[0]).toEqual({
        role: 'user',
        content: 'What is in [image 1]? One word.\n\n[image 1: image/png, 70 bytes, sent as an image]',
      });
    }
  });

  it('parses a JSON answer and fails with INVALID_MODEL_OUTPUT when it breaks the schema', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const config = llmNode.configSchema.parse({ prompt: 'count', outputFormat: 'json', jsonSchema: schema });
    server.reply = () => ({ content: '```json\n{"n": 3}\n```' });
    expect(await llmNode.execute?.(nodeContext({ llm: testLlm(server.url) }), config)).toEqual({
      kind: 'output',
      output: { n: 3 },
    });
    server.reply = () => ({ content: '{"n": "three"}' });
    await expect(llmNode.execute?.(nodeContext({ llm: testLlm(server.url) }), config)).rejects.toMatchObject({
      code: 'INVALID_MODEL_OUTPUT',
    });
  });

  it('says an answer cut at the token limit, streamed or not: a warning on the step, and why its JSON does not parse', async () => {
    for (const streamsTokens of [true, false]) {
      server.reply = () => ({ content: 'Sea otters hold hands while they', finishReason: 'length' });
      const ctx = { ...nodeContext({ llm: testLlm(server.url) }), streamsTokens };
      const text = llmNode.configSchema.parse({ prompt: 'About otters', maxTokens: 8 });
      expect(await llmNode.execute?.(ctx, text)).toEqual({
        kind: 'output',
        output: 'Sea otters hold hands while they',
      });
      expect(ctx.reported.at(-1)?.warnings).toEqual([
        "the answer stopped at the token limit, so it may be cut short (Max tokens, or the model's own limit)",
      ]);
      server.reply = () => ({ content: '{"facts": ["otters hold', finishReason: 'length' });
      const json = llmNode.configSchema.parse({ prompt: 'Facts', outputFormat: 'json', maxTokens: 8 });
      await expect(
        llmNode.execute?.({ ...nodeContext({ llm: testLlm(server.url) }), streamsTokens }, json),
      ).rejects.toMatchObject({
        code: 'INVALID_MODEL_OUTPUT',
        message: expect.stringContaining(
          "the model's answer is not valid JSON (it stopped at the token limit before the JSON ended: raise Max tokens, or ask for less)",
        ),
      });
      // A whole answer says nothing of the kind.
      server.reply = () => ({ content: 'Otters.' });
      const whole = { ...nodeContext({ llm: testLlm(server.url) }), streamsTokens };
      await llmNode.execute?.(whole, text);
      expect(whole.reported.at(-1)?.warnings).toBeUndefined();
    }
  });

  it('sends the user-agent generateText sends, though a single answer goes to the model client directly', async () => {
    const config = llmNode.configSchema.parse({ prompt: 'hi' });
    await llmNode.execute?.({ ...nodeContext({ llm: testLlm(server.url) }), streamsTokens: false }, config);
    const model = createOpenAICompatible({ name: 'local', baseURL: server.url, includeUsage: true }).chatModel('m');
    await generateText({ model, prompt: 'hi', maxRetries: 0 });
    const [ours, sdk] = server.requests;
    expect(ours?.body.stream ?? false).toBe(false);
    expect(ours?.headers['user-agent']).toMatch(/^ai\/6\.\d+\.\d+ /);
    expect(ours?.headers['user-agent']).toBe(sdk?.headers['user-agent']);
  });

  it('reports an imported agent step without a model as unresolved, and nothing once a model is chosen', () => {
    const imported = llmNode.configSchema.parse({ prompt: 'x', agentVersionId: 'agent-v3' });
    expect(llmNode.check?.(imported)).toEqual([
      expect.objectContaining({ code: 'UNRESOLVED_AGENT', severity: 'error', field: 'config.model' }),
    ]);
    expect(llmNode.check?.({ ...imported, model: 'llama3.2' })).toEqual([]);
  });

  it('warns when it would send the model nothing, and not when a system prompt alone is its request', () => {
    expect(llmNode.check?.(llmNode.defaults())).toEqual([
      expect.objectContaining({ code: 'EMPTY_PROMPT', severity: 'warning', field: 'config.prompt' }),
    ]);
    expect(llmNode.check?.({ ...llmNode.defaults(), prompt: ' \n ' })).toHaveLength(1);
    expect(llmNode.check?.({ ...llmNode.defaults(), system: 'Write a haiku about otters.' })).toEqual([]);
    expect(llmNode.check?.({ ...llmNode.defaults(), prompt: '{{inputs.topic}}' })).toEqual([]);
  });

  it('says on its card which prompt it sends, and that there is none yet', () => {
    const empty = llmNode.defaults();
    expect(llmNode.summary(empty)).toBe('default model · no prompt yet');
    expect(llmNode.summary({ ...empty, model: 'm', system: 'Write a haiku\nabout otters.' })).toBe(
      'm · system: Write a haiku about otters.',
    );
    expect(llmNode.summary({ ...empty, system: 'Be brief.', prompt: '{{inputs.topic}}' })).toBe(
      'default model · {{inputs.topic}}',
    );
  });

  it('never repeats the API key a provider echoes in its error (security finding 8)', async () => {
    const key = 'sk-test-0123456789abcdef';
    server.reply = () => ({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}. Check it.` } }),
    });
    const ctx = nodeContext({ llm: testLlm(server.url, { apiKey: key, streaming: false }) });
    const failure = await Promise.resolve(llmNode.execute?.(ctx, llmNode.configSchema.parse({ prompt: 'hi' }))).catch(
      (e: Error) => e,
    );
    expect(failure).toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    expect((failure as Error).message).toContain('Incorrect API key provided: [redacted]');
    expect((failure as Error).message).not.toContain(key);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
  });
});
