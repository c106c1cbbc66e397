import { useAppStore } from '../store/app-store';
import { useProviders } from './use-providers';

/**
 * Said on the home screen and in the Run tab while no provider is the
 * default: a first run then fails with NO_PROVIDER, so the way out is shown
 * before it is needed.
 */
export function NoProviderNotice() {
  const { providers } = useProviders();
  if (!providers || providers.some((p) => p.isDefault)) return null;
  return (
    <p className="notice" data-testid="no-provider">
      No model provider is set up yet, so LLM nodes that name none cannot run.{' '}
      <button className="link" onClick={() => useAppStore.getState().navigate({ page: 'providers' })}>
        Set one up
      </button>
    </p>
  );
}
