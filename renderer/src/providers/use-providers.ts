import { useCallback, useEffect, useState } from 'react';
import type { ProviderListing } from '../../../core/model/summaries';
import { api } from '../api/client';

/** The providers as the host lists them (keys never included), with a way to list them again. */
export function useProviders(): { providers: ProviderListing[] | undefined; reload: () => Promise<void> } {
  const [providers, setProviders] = useState<ProviderListing[] | undefined>(undefined);
  const reload = useCallback(async () => {
    setProviders(await api.providers.list({}).catch(() => undefined));
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { providers, reload };
}
