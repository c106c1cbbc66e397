import { certificateFailure } from '../model/certificates';
import { FlowbenchError } from '../model/errors';
import { parseOrRefuse } from '../model/parse';
import {
  allProviders,
  LOCAL_PRESETS,
  needsKey,
  PRESETS,
  ProviderInputSchema,
  ProviderSettingsSchema,
  providerApiKey,
  providerUrl,
  type ProviderConfig,
  type ProviderSettings,
} from '../model/provider-config';
import { loadModelLibrary } from '../providers/model-library';
import { nodeRegistry } from '../nodes/registry';
import type { Flow } from '../model/flow';
import { missingKey, refusedKey } from '../providers/key-errors';
import { modelIdsOf, notAModelList } from '../providers/model-list';
import type { LlmPort, LlmResponse, ModelUse } from '../model/llm';
import type { AiSdkPort } from '../providers/ai-sdk-port';
import { costOf, priceFor, PriceSchema, PriceTableSchema, type Price, type PriceTable } from '../model/pricing';
import type { ProviderListing } from '../model/summaries';
import type { SettingsRepository } from '../store/settings-repository';
import { secretNames } from '../model/secrets';
import { loadOnce } from '../model/load-once';
import type { SecretVault } from './secret-vault';
import type * as ModelWarmUp from './model-warm-up';

/**
 * The model warm-up (model-warm-up.ts), loaded only here: with the model
 * library by the processes that call a model, as httpFetch is by `test`. They
 * bring node:http, node:https and node:zlib, which every command loaded
 * before, for nothing in most: `flowbench list` used 295 ms of CPU, then 276
 * (20 runs each way).
 */
const warmUpModule: () => Promise<typeof ModelWarmUp> = loadOnce(() => import('./model-warm-up'));

const KEY = 'providers';
const PRICES_KEY = 'prices';
const EMPTY: ProviderSettings = { providers: [] };

export type { ProviderListing } from '../model/summaries';

/** Model providers: presets plus the user's settings, and the LLM port built from them. */
export class ProviderService {
  private llmPort: LlmPort | undefined;
  private loaded: AiSdkPort | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    /** Where API keys are kept; the providers setting never holds one. */
    private readonly secrets: SecretVault,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The providers setting, without keys (a key an older Flowbench kept in it moves to the vault here). */
  private read(): ProviderSettings {
    const settings = this.settings.get(KEY, ProviderSettingsSchema, EMPTY);
    if (!settings.providers.some((p) => p.apiKey)) return settings;
    for (const p of settings.providers) if (p.apiKey) this.secrets.write(secretNames.providerKey(p.name), p.apiKey);
    const moved = { ...settings, providers: settings.providers.map(({ apiKey: _key, ...p }) => p) };
    this.settings.set(KEY, moved);
    return moved;
  }

  /** Every provider with its key, read from the vault only for the one asked for. */
  private withKey(config: ProviderConfig): ProviderConfig {
    const apiKey = this.secrets.read(secretNames.providerKey(config.name));
    return apiKey ? { ...config, apiKey } : config;
  }

  /**
   * The provider nodes that name none use; undefined until the person chose
   * one. (A preset is never assumed: a first run then says "set one up", not
   * "cannot reach ollama" about a server they never chose.)
   */
  defaultName(): string | undefined {
    return this.read().defaultProvider;
  }

  /** Makes an existing provider (a preset or a configured one) the default. */
  setDefault(name: string): void {
    const config = this.find(name);
    this.settings.set(KEY, { ...this.read(), defaultProvider: config.name });
  }

  list(): ProviderListing[] {
    const settings = this.read();
    const defaultName = this.defaultName();
    const added = new Set(settings.providers.map((p) => p.name));
    return allProviders(settings).map((p) => {
      const keyStore = this.secrets.storeOf(secretNames.providerKey(p.name));
      return {
        name: p.name,
        kind: p.kind,
        url: providerUrl(p),
        ...(p.defaultModel ? { defaultModel: p.defaultModel } : {}),
        isDefault: p.name === defaultName,
        isPreset: !added.has(p.name),
        apiKey: keyStore ? 'settings' : providerApiKey(p, this.env) ? 'environment' : 'none',
        ...(keyStore ? { keyStore } : {}),
        streaming: p.streaming,
      };
    });
  }

  /** '' means the default provider. Throws PROVIDER_NOT_FOUND with the names that exist, NO_PROVIDER when none is the default. */
  resolve(name: string): ProviderConfig {
    return this.withKey(this.find(name));
  }

  /** The provider's settings without its key. */
  private find(name: string): ProviderConfig {
    // Read once: every model call comes here.
    const settings = this.read();
    const wanted = name || settings.defaultProvider;
    if (!wanted) {
      // Providers added without being made the default are not "none set up": say which exist.
      const added = settings.providers.map((p) => p.name);
      throw new FlowbenchError(
        'NO_PROVIDER',
        added.length > 0
          ? `no provider is the default yet (yours: ${added.join(', ')}): make one the default on the Providers screen (or \`flowbench providers default <name>\`), or name a provider in the node`
          : 'no model provider is set up yet: add one on the Providers screen (or `flowbench providers set <name> --kind openai-compatible --base-url <url> --default`), or name a provider in the node',
      );
    }
    const all = allProviders(settings);
    const found = all.find((p) => p.name === wanted);
    if (!found) {
      throw new FlowbenchError(
        'PROVIDER_NOT_FOUND',
        `no provider is named "${wanted}" (providers: ${all.map((p) => p.name).join(', ')})`,
        {
          name: wanted,
        },
      );
    }
    return found;
  }

  /**
   * Adds or replaces a provider; `isDefault` also makes it the default. A key
   * given goes to the vault; none given removes the stored one, unless
   * `keepKey` (the editor, which never holds the key, saving other fields).
   */
  set(input: unknown, isDefault = false, { keepKey = false } = {}): ProviderConfig {
    const config = parseOrRefuse(ProviderInputSchema, input, 'provider');
    if (config.kind === 'openai-compatible' && !config.baseUrl) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `an openai-compatible provider needs --base-url (e.g. http://127.0.0.1:11434/v1)`,
      );
    }
    const settings = this.read();
    const { apiKey, ...stored } = config;
    const keyName = secretNames.providerKey(config.name);
    const providers = [...settings.providers.filter((p) => p.name !== config.name), stored];
    this.secrets.atomically(() => {
      if (apiKey) this.secrets.write(keyName, apiKey);
      else if (!keepKey) this.secrets.remove(keyName);
      this.settings.set(KEY, { ...settings, providers, ...(isDefault ? { defaultProvider: config.name } : {}) });
    });
    return config;
  }

  remove(name: string): void {
    const settings = this.read();
    if (!settings.providers.some((p) => p.name === name)) {
      throw new FlowbenchError(
        'PROVIDER_NOT_FOUND',
        `no provider named "${name}" is configured (presets cannot be removed)`,
      );
    }
    const providers = settings.providers.filter((p) => p.name !== name);
    const { defaultProvider, ...rest } = settings;
    this.secrets.atomically(() => {
      this.secrets.remove(secretNames.providerKey(name));
      this.settings.set(KEY, {
        ...rest,
        providers,
        // A preset removed is back as it ships, and stays the default if it was.
        ...(defaultProvider && (defaultProvider !== name || PRESETS.some((p) => p.name === name))
          ? { defaultProvider }
          : {}),
      });
    });
  }

  /**
   * Builds the clients that first calls of these models would build, after
   * reading the providers setting and the prices as each call does: about
   * 4 ms of a new `flowbench mcp`'s first call of a flow with model nodes.
   * Sends nothing and writes nothing. Left to the call, which says what is
   * wrong: a provider that does not resolve, and one whose key the system
   * keychain keeps (asking it may ask the person, who has not called anything
   * yet); and everything while an older Flowbench's key is still in the
   * setting (the first call moves it to the vault).
   */
  async prepareModels(uses: readonly ModelUse[]): Promise<void> {
    if (uses.length === 0) return;
    const stored = this.settings.get(KEY, ProviderSettingsSchema, EMPTY);
    if (stored.providers.some((p) => p.apiKey)) return;
    this.prices();
    const port = await this.sdkPort();
    const done = new Set<string>();
    for (const use of uses) {
      const name = use.provider || stored.defaultProvider;
      const key = JSON.stringify([name, use.model]);
      if (!name || done.has(key)) continue;
      done.add(key);
      if (this.secrets.storeOf(secretNames.providerKey(name)) === 'keychain') continue;
      try {
        port.prepare(use);
      } catch {
        // The first call of the model fails the same way, and says so.
      }
    }
  }

  /** Loads the model library and the warm-up now (see model-library.ts), for a process about to call models. */
  async preload(): Promise<void> {
    await Promise.all([loadModelLibrary(), warmUpModule()]);
  }

  /**
   * Preloads for a run of `flow`, when it may call a model (nodeRegistry.mayCallModels).
   * A flow of templates, conditions, HTTP requests and tool calls never needs
   * the library: `flowbench run` of a one-template flow took 448 ms from spawn
   * to exit with it, 339 without.
   */
  async preloadFor(flow: Pick<Flow, 'nodes'>): Promise<void> {
    if (this.mayCallModels(flow)) await this.preload();
  }

  /**
   * Warms a first model call up `afterMs` from now, once in a process (see
   * warmModelCallsOnce): for a server between a client's tools/list and its
   * first call. Resolves with the warm-up calls made.
   */
  async warmUpOnce(afterMs: number): Promise<number> {
    return (await warmUpModule()).warmModelCallsOnce(afterMs);
  }

  /** Whether a run of `flow` may call a model: one of its nodes does, or calls a flow or agent that may. */
  mayCallModels(flow: Pick<Flow, 'nodes'>): boolean {
    return flow.nodes.some((node) => nodeRegistry.mayCallModels(node));
  }

  /**
   * Every call's usage names the model that answered and, when it has a
   * price, what it cost. One port serves every run: it reads the providers
   * and prices at each call, so settings changed meanwhile apply (building
   * one for each run cost an MCP call 2 KB of garbage).
   */
  port(): LlmPort {
    this.llmPort ??= this.buildPort();
    return this.llmPort;
  }

  /** The AI SDK's port; the model library is loaded by the first call, unless its process did before (model-library.ts). */
  private async sdkPort(): Promise<AiSdkPort> {
    this.loaded ??= (await loadModelLibrary()).createAiSdkPort((name) => this.resolve(name), this.env);
    return this.loaded;
  }

  private buildPort(): LlmPort {
    const priced = <R extends LlmResponse>(response: R): R => {
      if (!response.usage) return response;
      const price = priceFor(this.prices(), response.provider, response.model);
      const usage = { ...response.usage, provider: response.provider, model: response.model };
      return { ...response, usage: price ? { ...usage, cost: costOf(usage, price) } : usage };
    };
    // Once the first request is out, the rest of the model library is compiled while it waits,
    // until a real answer comes.
    const warmingUp = <T>(answer: Promise<T>): Promise<T> => {
      void warmUpModule().then(({ modelAnswered, warmModelCallsAfterFirstRequest }) => {
        void warmModelCallsAfterFirstRequest();
        answer.then(modelAnswered, modelAnswered);
      });
      return answer;
    };
    return {
      generate: async (request) => priced(await warmingUp((this.loaded ?? (await this.sdkPort())).generate(request))),
      runAgent: async (request) => priced(await warmingUp((this.loaded ?? (await this.sdkPort())).runAgent(request))),
    };
  }

  prices(): PriceTable {
    return this.settings.get(PRICES_KEY, PriceTableSchema, { prices: [] });
  }

  /** Adds or replaces the price of a model (at a provider, or any). A negative price is refused. */
  setPrice(input: unknown): PriceTable {
    const price: Price = parseOrRefuse(PriceSchema, input, 'price');
    const others = this.prices().prices.filter((p) => !(p.model === price.model && p.provider === price.provider));
    const table = { prices: [...others, price] };
    this.settings.set(PRICES_KEY, table);
    return table;
  }

  removePrice(model: string, provider = ''): PriceTable {
    const table = { prices: this.prices().prices.filter((p) => !(p.model === model && p.provider === provider)) };
    this.settings.set(PRICES_KEY, table);
    return table;
  }

  /**
   * Local servers answering on their default ports (Ollama, LM Studio), with
   * their models: what a first run offers to use. Each is asked for at most
   * `timeoutMs`; one that does not answer is simply not listed.
   */
  async detect(timeoutMs = 1_500): Promise<{ name: string; url: string; models: string[] }[]> {
    const found = await Promise.all(
      LOCAL_PRESETS.map(async (name) => {
        try {
          return { name, ...(await this.test(name, AbortSignal.timeout(timeoutMs))) };
        } catch {
          return undefined;
        }
      }),
    );
    return found.filter((f) => f !== undefined);
  }

  /** Asks the provider for its models: proves the URL and the key work. */
  async test(name: string, signal?: AbortSignal): Promise<{ url: string; models: string[] }> {
    const config = this.resolve(name);
    const url = providerUrl(config).replace(/\/$/, '');
    const key = providerApiKey(config, this.env);
    if (!key && needsKey(config)) throw missingKey(config, url);
    const headers: Record<string, string> =
      config.kind === 'anthropic'
        ? { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) }
        : key
          ? { authorization: `Bearer ${key}` }
          : {};
    let response: Response;
    try {
      // The fetch model calls use, so that a provider this test passes is one a run reaches.
      const { httpFetch } = await import('../providers/http-fetch');
      response = await httpFetch(`${url}/models`, { headers, signal: signal ?? AbortSignal.timeout(10_000) });
    } catch (error) {
      const cause =
        certificateFailure(error) ??
        (error as { cause?: { message?: string } }).cause?.message ??
        (error as Error).message;
      throw new FlowbenchError('PROVIDER_UNAVAILABLE', `cannot reach provider "${config.name}" at ${url}: ${cause}`, {
        provider: config.name,
        url,
      });
    }
    if (response.status === 401 || response.status === 403)
      throw refusedKey(config, url, response.status, Boolean(key));
    if (!response.ok) {
      throw new FlowbenchError(
        'PROVIDER_ERROR',
        `provider "${config.name}" answered ${response.status} at ${url}/models`,
        { url, status: response.status },
      );
    }
    const text = await response.text().catch((error: unknown) => {
      throw new FlowbenchError(
        'PROVIDER_UNAVAILABLE',
        `provider "${config.name}" broke off its answer at ${url}/models: ${(error as Error).message}`,
        { provider: config.name, url },
      );
    });
    const models = modelIdsOf(text);
    if (!models) {
      // A web app's address (Open WebUI) or a server's own API instead of its OpenAI-compatible one.
      const usual = config.kind === 'openai-compatible' ? " (an OpenAI-compatible server's usually ends in /v1)" : '';
      throw new FlowbenchError(
        'PROVIDER_ERROR',
        `provider "${config.name}" answered ${url}/models with ${notAModelList(response.headers.get('content-type'), text)} instead of a list of models: is ${url} its API's address${usual}?`,
        { url, status: response.status },
      );
    }
    return { url, models };
  }
}
