import { api } from '../api/client';

// Asked once per page: listing a provider's models is a request to that provider.
const cache = new Map<string, Promise<readonly string[]>>();

/**
 * Provider names, or the models of a provider (empty name: the default one),
 * for the inspector's suggestions. A provider that cannot be reached offers
 * none: the field still takes any text.
 */
export function suggestionsFor(kind: 'providers' | 'models', provider: string): Promise<readonly string[]> {
  const key = `${kind}:${provider}`;
  let found = cache.get(key);
  if (!found) {
    found =
      kind === 'providers'
        ? api.providers.list({}).then((list) => list.map((p) => p.name))
        : defaultProvider(provider).then((name) => (name ? api.providers.test({ name }).then((r) => r.models) : []));
    found = found.catch(() => []);
    cache.set(key, found);
  }
  return found;
}

async function defaultProvider(name: string): Promise<string | undefined> {
  if (name) return name;
  return (await api.providers.list({})).find((p) => p.isDefault)?.name;
}
