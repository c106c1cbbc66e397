import { FlowbenchError } from '../model/errors';
import { whereToSetKey, type ProviderConfig } from '../model/provider-config';

/*
 * The provider errors said without the AI SDK (see model-library.ts): a
 * missing or refused key, and secrets kept out of messages.
 */

/** Which provider a call went to: its name for messages, its kind for where its key is set. */
export type Provider = Pick<ProviderConfig, 'name' | 'kind'>;

/** The text with every secret (an API key a provider echoed back) replaced; short strings are no secrets. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 8) result = result.split(secret).join('[redacted]');
  return result;
}

/** A provider whose API refuses every request without a key has none: said before anything is sent. */
export function missingKey(provider: Provider, url: string): FlowbenchError {
  return new FlowbenchError(
    'PROVIDER_AUTH_FAILED',
    `provider "${provider.name}" has no API key: ${whereToSetKey(provider)}`,
    {
      provider: provider.name,
      url,
    },
  );
}

/** A 401 or 403: the key was refused, or none was sent to a server that wants one. */
export function refusedKey(provider: Provider, url: string, status: number, keySent: boolean): FlowbenchError {
  return new FlowbenchError(
    'PROVIDER_AUTH_FAILED',
    keySent
      ? `provider "${provider.name}" refused the API key (${status})`
      : `provider "${provider.name}" asks for an API key (${status}) and none is set: ${whereToSetKey(provider)}`,
    { provider: provider.name, url, status },
  );
}
