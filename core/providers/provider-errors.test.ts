import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from './http-fetch';
import { providerError } from './provider-errors';

const CHUNK = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
};

/** A provider that fails after taking the request, in the ways the tests name by path. */
function misbehave(path: string, res: ServerResponse): void {
  if (path.startsWith('/breaks-off-streaming')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`data: ${JSON.stringify(CHUNK)}\n\n`);
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  if (path.startsWith('/wants-key')) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no key"}}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  if (path.startsWith('/not-json')) res.end('{"id": nope');
  else if (path.startsWith('/wrong-shape')) res.end('{"id": 3, "choices": "none"}');
  else if (path.startsWith('/breaks-off')) {
    res.write('{"id":"c",');
    setTimeout(() => res.socket?.destroy(), 20);
  }
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => misbehave(req.url ?? '/', res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** What a person reads when a model call to `path` fails: the AI SDK's error through providerError. */
async function failure(path: string, stream = false, apiKey?: string) {
  const url = `${base}${path}`;
  const model = createOpenAICompatible({ name: 'local', baseURL: url, fetch: httpFetch, apiKey }).chatModel('m');
  try {
    if (stream) {
      for await (const part of streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => undefined }).fullStream)
        if (part.type === 'error') throw part.error;
    } else {
      await generateText({ model, prompt: 'hi', maxRetries: 0 });
    }
  } catch (error) {
    const { code, message } = providerError(error, { name: 'local', kind: 'openai-compatible' }, url, [apiKey]);
    return { code, message };
  }
  throw new Error(`${path} answered`);
}

describe('providerError', () => {
  it("says a provider's certificate this machine does not trust, and where a company's own authority goes", async () => {
    const tls = join(import.meta.dirname, '../../tests/fixtures/tls');
    const secure = createHttpsServer(
      { cert: readFileSync(join(tls, 'localhost.crt')), key: readFileSync(join(tls, 'localhost.key')) },
      (_req, res) => res.end('{}'),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/v1`;
    try {
      const model = createOpenAICompatible({ name: 'corp', baseURL: url, fetch: httpFetch }).chatModel('m');
      const thrown: unknown = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e);
      expect(providerError(thrown, { name: 'corp', kind: 'openai-compatible' }, url, [])).toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        message: `cannot reach provider "corp" at ${url}: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT); a company's own certificate authority goes in NODE_EXTRA_CA_CERTS, a PEM file read when Flowbench starts`,
      });
    } finally {
      secure.close();
    }
  });

  it('says what went wrong after a provider answered 200, not "Failed to process successful response"', async () => {
    const brokenOff = {
      code: 'PROVIDER_ERROR',
      message: 'provider "local" answered 200, then reading its answer failed: aborted (ECONNRESET)',
    };
    expect(await failure('/breaks-off')).toEqual(brokenOff);
    expect(await failure('/breaks-off-streaming', true)).toEqual(brokenOff);
    expect(await failure('/not-json')).toEqual({
      code: 'PROVIDER_ERROR',
      message: 'provider "local" answered 200, and its answer is not JSON: {"id": nope',
    });
    expect(await failure('/wrong-shape')).toEqual({
      code: 'PROVIDER_ERROR',
      message: `provider "local" answered 200, and its answer is not in the API's format: {"id": 3, "choices": "none"}`,
    });
  });

  it('tells a key refused from none sent to a server that wants one, and says where a key goes', async () => {
    expect(await failure('/wants-key', false, 'sk-wrong-key-123')).toEqual({
      code: 'PROVIDER_AUTH_FAILED',
      message: 'provider "local" refused the API key (401). It said: {"error":{"message":"no key"}}',
    });
    expect(await failure('/wants-key')).toEqual({
      code: 'PROVIDER_AUTH_FAILED',
      message:
        'provider "local" asks for an API key (401) and none is set: add it on the Model providers screen (Edit), or with `flowbench providers set local --kind openai-compatible --base-url <url> --api-key <key>`. It said: {"error":{"message":"no key"}}',
    });
  });
});
