import { z } from 'zod';

export const PROVIDER_KINDS = ['openai-compatible', 'openai', 'anthropic'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** Said where a name breaks the rule: by the host, and by the editor's form before it sends. */
export const PROVIDER_NAME_RULE = 'a provider name is 1–64 letters, digits, _ . or -';

export const ProviderConfigSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, PROVIDER_NAME_RULE),
  kind: z.enum(PROVIDER_KINDS),
  /** Required for openai-compatible; optional override for openai and anthropic. */
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  /** Used by nodes that leave their model empty. */
  defaultModel: z.string().min(1).optional(),
  /** Some local servers stream badly; false makes one plain request per call. */
  streaming: z.boolean().default(true),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/**
 * A provider as a person sets it: its URL must be one requests can go to
 * (http or https; an ftp:// one was taken, and every call then failed).
 * Stored settings are read with the looser schema above, so one saved before
 * this rule still opens and can be corrected.
 */
export const ProviderInputSchema = ProviderConfigSchema.extend({
  baseUrl: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }).optional(),
});

export const ProviderSettingsSchema = z.object({
  providers: z.array(ProviderConfigSchema).default([]),
  defaultProvider: z.string().optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** Providers that exist without configuration; settings with the same name replace them. */
export const PRESETS: readonly ProviderConfig[] = [
  { name: 'ollama', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', streaming: true },
  { name: 'lmstudio', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', streaming: true },
  { name: 'openai', kind: 'openai', streaming: true },
  { name: 'anthropic', kind: 'anthropic', streaming: true },
];

/** Local servers Flowbench looks for on their default ports, so a first run can offer them. */
export const LOCAL_PRESETS: readonly string[] = ['ollama', 'lmstudio'];

/** Every provider a flow can name: presets overlaid with the user's settings. */
export function allProviders(settings: ProviderSettings): ProviderConfig[] {
  const byName = new Map(PRESETS.map((p) => [p.name, p]));
  for (const provider of settings.providers) byName.set(provider.name, provider);
  return [...byName.values()];
}

/** Where a kind's requests go when its provider sets no base URL (an openai-compatible one always sets one). */
export function kindUrl(kind: ProviderKind): string {
  return kind === 'anthropic' ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1';
}

/** The URL requests go to, for messages and `providers list`. */
export function providerUrl(config: ProviderConfig): string {
  return config.baseUrl || kindUrl(config.kind);
}

/** The environment variable a kind's key may come from (an openai-compatible server has none). */
const KEY_VARIABLES: Partial<Record<ProviderKind, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** The key in use: the configured one, else the kind's environment variable. */
export function providerApiKey(
  config: ProviderConfig,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (config.apiKey) return config.apiKey;
  const variable = KEY_VARIABLES[config.kind];
  return variable ? env[variable] : undefined;
}

/**
 * Where a person sets a provider's key, for a message saying it has none:
 * OpenAI's and Anthropic's APIs refuse every request without one, and the AI
 * SDK's own words ("Pass it using the 'apiKey' parameter") mean nothing here.
 */
export function whereToSetKey(config: Pick<ProviderConfig, 'name' | 'kind'>): string {
  const variable = KEY_VARIABLES[config.kind];
  return `add it on the Model providers screen (Edit), or with \`flowbench providers set ${config.name} --kind ${config.kind}${
    config.kind === 'openai-compatible' ? ' --base-url <url>' : ''
  } --api-key <key>\`${variable ? `, or set ${variable}` : ''}`;
}

/** The kinds whose API refuses every request without a key. */
export function needsKey(config: Pick<ProviderConfig, 'kind'>): boolean {
  return config.kind !== 'openai-compatible';
}
