import { useState } from 'react';
import { kindUrl } from '../../../core/model/provider-config';
import { SECRET_STORE_LABELS } from '../../../core/model/secrets';
import type { ProviderListing } from '../../../core/model/summaries';
import { api } from '../api/client';
import { keyFieldNote, useSecretStore } from './use-secret-store';

/** Runs a change to the providers and lists them again; a refusal goes to `say`. */
export type Act = (change: () => Promise<unknown>, say?: (message: string | undefined) => void) => Promise<void>;

/** What a provider's settings may change to; what is left out stays as stored. */
interface Changes {
  baseUrl?: string;
  streaming?: boolean;
  defaultModel?: string;
  apiKey?: string;
}

/** The URL a provider stores itself; empty for a kind's own (a preset's, which is not stored). */
const ownUrl = (provider: ProviderListing) =>
  provider.kind === 'openai-compatible' || provider.url !== kindUrl(provider.kind) ? provider.url : '';

/**
 * A listed provider's settings with `changes`, for providers.set: the form
 * here and the provider row's model both save through it, so neither stores
 * what the other did not mean to (a kind's own URL, a dropped model).
 */
export function changedSettings(provider: ProviderListing, changes: Changes) {
  const baseUrl = (changes.baseUrl ?? ownUrl(provider)).trim();
  const defaultModel = changes.defaultModel ?? provider.defaultModel;
  return {
    name: provider.name,
    kind: provider.kind,
    streaming: changes.streaming ?? provider.streaming,
    ...(baseUrl ? { baseUrl } : {}),
    ...(defaultModel ? { defaultModel } : {}),
    ...(changes.apiKey ? { apiKey: changes.apiKey } : {}),
  };
}

/**
 * A provider's settings changed in place, as n8n edits a credential: its
 * URL, its key (set, replaced or removed; never shown) and whether answers
 * stream. A preset edited becomes the person's own (Remove takes it back).
 */
export function ProviderSettingsForm({
  provider,
  act,
  onDone,
}: {
  provider: ProviderListing;
  act: Act;
  onDone: () => void;
}) {
  const [baseUrl, setBaseUrl] = useState(ownUrl(provider));
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [streaming, setStreaming] = useState(provider.streaming);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const secretStore = useSecretStore();
  const id = (field: string) => `provider-${provider.name}-${field}`;
  const stored = provider.keyStore ? `stored ${SECRET_STORE_LABELS[provider.keyStore]}` : undefined;
  const save = () =>
    act(async () => {
      await api.providers.set({
        provider: changedSettings(provider, { baseUrl, streaming, apiKey }),
        isDefault: provider.isDefault,
        removeKey: removeKey && !apiKey,
      });
      onDone();
    }, setProblem);
  return (
    <form
      aria-label={`Settings of ${provider.name}`}
      className="provider-settings"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="field" htmlFor={id('url')}>
        <span className="field-label">
          Base URL{provider.kind === 'openai-compatible' ? '' : ' (empty: the API’s own)'}
        </span>
        <input
          id={id('url')}
          type="url"
          required={provider.kind === 'openai-compatible'}
          value={baseUrl}
          placeholder={provider.kind === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : kindUrl(provider.kind)}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      <label className="field" htmlFor={id('key')}>
        <span className="field-label">
          API key ({stored ? `${stored}: type a new one to replace it` : keyFieldNote(secretStore)})
        </span>
        <input
          id={id('key')}
          type="password"
          autoComplete="new-password"
          value={apiKey}
          placeholder={stored ? '••••••••' : provider.apiKey === 'environment' ? 'from the environment' : 'none'}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </label>
      {stored && (
        <label className="field inline" htmlFor={id('remove-key')}>
          <input
            id={id('remove-key')}
            type="checkbox"
            checked={removeKey}
            disabled={Boolean(apiKey)}
            onChange={(e) => setRemoveKey(e.target.checked)}
          />
          <span className="field-label">Remove the stored key</span>
        </label>
      )}
      <label className="field inline" htmlFor={id('streaming')}>
        <input
          id={id('streaming')}
          type="checkbox"
          checked={streaming}
          onChange={(e) => setStreaming(e.target.checked)}
        />
        <span className="field-label">Stream answers (turn off for a server that streams badly)</span>
      </label>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="run-actions">
        <button type="submit" className="primary">
          Save settings
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
