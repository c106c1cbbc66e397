import { needsKey } from '../../../core/model/provider-config';
import { PageLink } from '../page-link';
import { useProviders } from './use-providers';

/**
 * Said on the home screen and in the Run tab while no provider is the
 * default, or the default needs a key it does not have: a first run then fails with NO_PROVIDER, so the way out is shown
 * before it is needed. With providers added but none the default, it says
 * that, as NO_PROVIDER's message does, not that none is set up.
 */
export function NoProviderNotice() {
  const { providers } = useProviders();
  if (!providers) return null;
  const chosen = providers.find((p) => p.isDefault);
  // OpenAI and Anthropic answer nothing without a key: a default without one fails every run the same way.
  if (chosen && needsKey(chosen) && chosen.apiKey === 'none') {
    return (
      <p className="notice" data-testid="no-provider">
        The default provider {chosen.name} has no API key, so LLM nodes that name none cannot run.{' '}
        <PageLink className="link" to={{ page: 'providers' }}>
          Add it
        </PageLink>
      </p>
    );
  }
  if (chosen) return null;
  // The presets are there without being set up; the ones the person added are what to choose from.
  const added = providers.filter((p) => !p.isPreset).map((p) => p.name);
  return (
    <p className="notice" data-testid="no-provider">
      {added.length === 0
        ? 'No model provider is set up yet'
        : `No provider is the default yet (yours: ${added.join(', ')})`}
      , so LLM nodes that name none cannot run.{' '}
      <PageLink className="link" to={{ page: 'providers' }}>
        {added.length === 0 ? 'Set one up' : 'Choose the default'}
      </PageLink>
    </p>
  );
}
