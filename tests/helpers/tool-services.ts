import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openServices, type Services } from '../../core/services/open-services';
import { everythingStdio } from './mcp-servers';
import { startOpenAiServer, type OpenAiServer, type ReplyFn } from './openai-server';
import { useTempDir } from './temp';

/**
 * For tests of tools and agents: the local OpenAI-compatible server (one per
 * file) and `open(reply?)`, a fresh database with it as the default provider
 * and server-everything connected over stdio; closed (servers ended) after each test.
 */
export function useToolServices(): { model: () => OpenAiServer; open: (reply?: ReplyFn) => Services } {
  const tempDir = useTempDir();
  let model: OpenAiServer | undefined;
  let services: Services | undefined;
  beforeAll(async () => {
    model = await startOpenAiServer();
  });
  afterAll(() => model?.close());
  afterEach(async () => {
    await services?.servers.close();
    services?.close();
    services = undefined;
  });
  const server = () => {
    if (!model) throw new Error('the model server starts before the tests');
    return model;
  };
  return {
    model: server,
    open: (reply) => {
      const local = server();
      if (reply) local.reply = reply;
      local.requests.length = 0;
      services = openServices(join(tempDir(), 'flowbench.db'));
      services.providers.set(
        { name: 'local', kind: 'openai-compatible', baseUrl: local.url, defaultModel: 'test-model' },
        true,
      );
      services.servers.set(everythingStdio());
      return services;
    },
  };
}
