import { FlowbenchError } from '../model/errors';
import type { ApiClient, ApiTransport } from './contract';

/**
 * An object whose every property is made by `make` on first use. `then` stays
 * undefined, so the object is never mistaken for a promise.
 */
function madeOnUse<T>(make: (name: string) => T): Record<string, T> {
  const made = new Map<string, T>();
  return new Proxy<Record<string, T>>(
    {},
    {
      get: (_, name) => {
        if (typeof name !== 'string' || name === 'then') return undefined;
        if (!made.has(name)) made.set(name, make(name));
        return made.get(name);
      },
    },
  );
}

/**
 * Builds the typed client over any transport. It needs only the contract's
 * types: a call's service and method are the names it is made with, and the
 * host checks the arguments against the contract's schemas. So the editor
 * does not build those schemas while it opens.
 */
export function createApiClient(transport: ApiTransport): ApiClient {
  const client = madeOnUse((service) =>
    madeOnUse((method) => async (args?: unknown) => {
      const reply = await transport.invoke(service, method, args ?? {});
      // The host's error arrives as data; it becomes the same error type again.
      if (!reply.ok) throw new FlowbenchError(reply.error.code, reply.error.message, reply.error.data);
      return reply.value;
    }),
  );
  return client as unknown as ApiClient;
}
