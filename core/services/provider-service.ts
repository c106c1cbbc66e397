import { FlowbenchError } from '../model/errors';
import {
  allProviders,
  FALLBACK_DEFAULT_PROVIDER,
  ProviderConfigSchema,
  ProviderSettingsSchema,
  providerApiKey,
  providerUrl,
  type ProviderConfig,
  type ProviderSettings,
} from '../providers/provider-config';
import { createAiSdkPort } from '../providers/ai-sdk-port';
import type { LlmPort } from '../model/llm';
import type { ProviderListing } from '../model/summaries';
import type { SettingsRepository } from '../store/settings-repository';

const KEY = 'providers';
const EMPTY: ProviderSettings = { providers: [] };

export type { ProviderListing } from '../model/summaries';

/** Model providers: presets plus the user's settings, and the LLM port built from them. */
export class ProviderService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  private read(): ProviderSettings {
    return this.settings.get(KEY, ProviderSettingsSchema, EMPTY);
  }

  defaultName(): string {
    return this.read().defaultProvider ?? FALLBACK_DEFAULT_PROVIDER;
  }

  list(): ProviderListing[] {
    const settings = this.read();
    const defaultName = this.defaultName();
    return allProviders(settings).map((p) => ({
      name: p.name,
      kind: p.kind,
      url: providerUrl(p),
      ...(p.defaultModel ? { defaultModel: p.defaultModel } : {}),
      isDefault: p.name === defaultName,
      apiKey: p.apiKey ? 'settings' : providerApiKey(p, this.env) ? 'environment' : 'none',
      streaming: p.streaming,
    }));
  }

  /** '' means the default provider. Throws PROVIDER_NOT_FOUND with the names that exist. */
  resolve(name: string): ProviderConfig {
    const wanted = name || this.defaultName();
    const all = allProviders(this.read());
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

  /** Adds or replaces a provider; `isDefault` also makes it the default. */
  set(input: unknown, isDefault = false): ProviderConfig {
    const parsed = ProviderConfigSchema.safeParse(input);
    if (!parsed.success) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        parsed.error.issues.map((i) => `${i.path.join('.') || 'provider'}: ${i.message}`).join('; '),
      );
    }
    const config = parsed.data;
    if (config.kind === 'openai-compatible' && !config.baseUrl) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `an openai-compatible provider needs --base-url (e.g. http://127.0.0.1:11434/v1)`,
      );
    }
    const settings = this.read();
    const providers = [...settings.providers.filter((p) => p.name !== config.name), config];
    this.settings.set(KEY, { ...settings, providers, ...(isDefault ? { defaultProvider: config.name } : {}) });
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
    this.settings.set(KEY, {
      ...rest,
      providers,
      ...(defaultProvider && defaultProvider !== name ? { defaultProvider } : {}),
    });
  }

  port(): LlmPort {
    return createAiSdkPort((name) => this.resolve(name), this.env);
  }

  /** Asks the provider for its models: proves the URL and the key work. */
  async test(name: string, signal?: AbortSignal): Promise<{ url: string; models: string[] }> {
    const config = this.resolve(name);
    const url = providerUrl(config).replace(/\/$/, '');
    const key = providerApiKey(config, this.env);
    const headers: Record<string, string> =
      config.kind === 'anthropic'
        ? { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) }
        : key
          ? { authorization: `Bearer ${key}` }
          : {};
    let response: Response;
    try {
      response = await fetch(`${url}/models`, { headers, signal: signal ?? AbortSignal.timeout(10_000) });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new FlowbenchError('PROVIDER_UNAVAILABLE', `cannot reach provider "${config.name}" at ${url}: ${cause}`, {
        provider: config.name,
        url,
      });
    }
    if (response.status === 401 || response.status === 403) {
      throw new FlowbenchError(
        'PROVIDER_AUTH_FAILED',
        `provider "${config.name}" refused the API key (${response.status})`,
        { url },
      );
    }
    if (!response.ok) {
      throw new FlowbenchError(
        'PROVIDER_ERROR',
        `provider "${config.name}" answered ${response.status} at ${url}/models`,
        { url, status: response.status },
      );
    }
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    return { url, models: (body.data ?? []).map((m) => String(m.id)) };
  }
}
