import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dumpDatabase } from '../../tests/helpers/db-dump';
import { startOpenAiServer, type OpenAiServer } from '../../tests/helpers/openai-server';
import { useTempDir } from '../../tests/helpers/temp';
import type { LlmRequest } from '../model/llm';
import { nodeRegistry } from '../nodes/registry';
import { keychainBackend, type KeychainBinding } from './keychain-backend';
import { openServices, type Services } from './open-services';

/**
 * ProviderService.prepareModels, which `flowbench mcp` calls for the tools it
 * listed before their first call: over a real database file and a real
 * OpenAI-compatible server; the OS keychain is a stand-in that counts reads.
 */
const tempDir = useTempDir();
/** A text request as an LLM node makes one, to the provider and model named. */
const ask = (provider: string, model: string, prompt = 'x'): LlmRequest => ({
  provider,
  model,
  prompt,
  outputFormat: 'text',
  signal: new AbortController().signal,
});
const open: (Services | OpenAiServer)[] = [];
afterEach(async () => {
  for (const opened of open.splice(0)) await opened.close();
});

/** A keychain kept in a map, counting the keys read from it. */
function countingKeychain() {
  const entries = new Map<string, string>();
  const reads: string[] = [];
  class Entry {
    constructor(
      private readonly service: string,
      private readonly account: string,
    ) {}
    setPassword(password: string) {
      entries.set(`${this.service}:${this.account}`, password);
    }
    getPassword() {
      if (!this.account.endsWith('availability-probe')) reads.push(this.account);
      return entries.get(`${this.service}:${this.account}`) ?? null;
    }
    deletePassword() {
      return entries.delete(`${this.service}:${this.account}`);
    }
  }
  const binding: KeychainBinding = { Entry };
  return { binding, reads };
}

async function setUp(file: string, binding?: KeychainBinding) {
  const server = await startOpenAiServer(() => ({ content: 'answered' }));
  open.push(server);
  const path = join(tempDir(), file);
  const services = openServices(path, { secretBackends: binding ? [keychainBackend(() => binding)] : [] });
  open.push(services);
  return { server, services, path };
}

describe('ProviderService.prepareModels', () => {
  it('sends and writes nothing, and the call after it is answered by the provider it named', async () => {
    const { server, services, path } = await setUp('prepare.db');
    services.providers.set({ name: 'local', kind: 'openai-compatible', baseUrl: server.url, defaultModel: 'm1' }, true);
    services.providers.set({ name: 'other', kind: 'openai-compatible', baseUrl: server.url });
    const before = dumpDatabase(path);

    await services.providers.prepareModels([
      { provider: '', model: '' },
      { provider: 'other', model: 'm2' },
      { provider: 'local', model: 'm1' },
    ]);
    expect(server.requests).toHaveLength(0);
    expect(dumpDatabase(path)).toEqual(before);

    const port = services.providers.port();
    const answer = await port.generate(ask('other', 'm2', 'hello'));
    expect(answer).toMatchObject({ text: 'answered', provider: 'other', model: 'm2' });
    expect(await port.generate(ask('', '', 'hi'))).toMatchObject({ provider: 'local' });
    expect(server.requests.map((r) => r.body.model)).toEqual(['m2', 'm1']);
  });

  it('leaves a provider that does not resolve to its call, which says why', async () => {
    const { services } = await setUp('missing.db');
    // No default provider, and one named that does not exist.
    await expect(
      services.providers.prepareModels([
        { provider: '', model: 'm' },
        { provider: 'gone', model: 'm' },
      ]),
    ).resolves.toBeUndefined();
    await expect(services.providers.port().generate(ask('gone', 'm', 'x'))).rejects.toMatchObject({
      code: 'PROVIDER_NOT_FOUND',
    });
  });

  it("does not ask the system keychain for a provider's key: the call does", async () => {
    const { binding, reads } = countingKeychain();
    const { server, services } = await setUp('keychain.db', binding);
    services.providers.set(
      { name: 'kept', kind: 'openai-compatible', baseUrl: server.url, apiKey: 'sk-kept-0123456789', defaultModel: 'm' },
      true,
    );
    expect(services.providers.list().find((p) => p.name === 'kept')?.keyStore).toBe('keychain');
    reads.length = 0;

    await services.providers.prepareModels([{ provider: 'kept', model: 'm' }]);
    expect(reads).toHaveLength(0);

    await services.providers.port().generate(ask('kept', 'm', 'x'));
    expect(reads).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-kept-0123456789');
  });
});

describe('the models a node calls (nodeRegistry.models)', () => {
  it("names an LLM node's and an agent node's provider and model, an agent of the library's none, a template none", () => {
    expect(nodeRegistry.models({ type: 'llm', config: { prompt: 'x', provider: 'p', model: 'm' } })).toEqual([
      { provider: 'p', model: 'm' },
    ]);
    expect(nodeRegistry.models({ type: 'llm', config: { prompt: 'x' } })).toEqual([{ provider: '', model: '' }]);
    expect(nodeRegistry.models({ type: 'agent', config: { prompt: 'x', provider: 'p', model: 'm' } })).toEqual([
      { provider: 'p', model: 'm' },
    ]);
    expect(nodeRegistry.models({ type: 'agent', config: { prompt: 'x', agentVersionId: 'v1' } })).toEqual([]);
    expect(nodeRegistry.models({ type: 'template', config: { template: 'x' } })).toEqual([]);
    // A config that does not parse names nothing (validation says why).
    expect(nodeRegistry.models({ type: 'llm', config: { prompt: 42 } })).toEqual([]);
  });
});

describe('whether a node may call a model (nodeRegistry.mayCallModels: `flowbench run` loads the model library for it)', () => {
  it('an LLM or agent node may, and a flow node (its flow may); a template, condition, code, HTTP or tool node may not', () => {
    const may = (type: string, config: unknown) => nodeRegistry.mayCallModels({ type, config });
    expect(may('llm', { prompt: 'x' })).toBe(true);
    expect(may('agent', { prompt: 'x', agentVersionId: 'v1' })).toBe(true);
    expect(may('flow', { flow: 'summarize' })).toBe(true);
    expect(may('flow', { flow: '' })).toBe(false);
    expect(may('mcp_tool', { server: 'files', tool: 'read_file' })).toBe(false);
    expect(may('template', { template: 'x' })).toBe(false);
    expect(may('condition', {})).toBe(false);
    expect(may('code', {})).toBe(false);
    expect(may('http', { url: 'http://127.0.0.1/' })).toBe(false);
    expect(may('no-such-type', {})).toBe(false);
  });
});
