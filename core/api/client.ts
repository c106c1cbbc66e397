import { FlowbenchError } from '../model/errors';
import type { ApiClient, ApiTransport } from './contract';

type Call = (args?: unknown) => Promise<unknown>;

/**
 * Builds the typed client over any transport. It needs only the contract's
 * types: a call's service and method are the names it is made with, and the
 * host checks the arguments against the contract's schemas. So the editor
 * does not build those schemas while it opens.
 */
export function createApiClient(transport: ApiTransport): ApiClient {
  const services = new Map<string, Record<string, Call>>();
  const serviceOf = (service: string) => {
    const calls = new Map<string, Call>();
    const call =
      (method: string): Call =>
      async (args) => {
        const reply = await transport.invoke(service, method, args ?? {});
        // The host's error arrives as data; it becomes the same error type again.
        if (!reply.ok) throw new FlowbenchError(reply.error.code, reply.error.message, reply.error.data);
        return reply.value;
      };
    return new Proxy<Record<string, Call>>(
      {},
      {
        // `then` stays undefined, so a service is never mistaken for a promise.
        get: (_, method) => {
          if (typeof method !== 'string' || method === 'then') return undefined;
          if (!calls.has(method)) calls.set(method, call(method));
          return calls.get(method);
        },
      },
    );
  };
  return new Proxy({} as ApiClient, {
    get: (_, service) => {
      if (typeof service !== 'string' || service === 'then') return undefined;
      if (!services.has(service)) services.set(service, serviceOf(service));
      return services.get(service);
    },
  });
}
