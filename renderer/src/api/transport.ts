import type { ApiReply, ApiTransport, HostEvent } from '../../../core/api/contract';

/**
 * The transport under the API client, kept free of the client's schemas so
 * the app can start a request before the rest of its modules run (prefetch-route.ts).
 */

/** Identifies this window, so it can tell its own changes from other windows'. */
export const CLIENT_ID = crypto.randomUUID();

interface PreloadBridge {
  invoke(service: string, method: string, args: unknown): Promise<ApiReply>;
  subscribe(listener: (event: HostEvent) => void): () => void;
}

declare global {
  interface Window {
    flowbench?: { host: 'electron'; api?: PreloadBridge };
  }
}

/** The session token `flowbench serve` put in the URL; kept for reloads of this tab. */
function sessionToken(): string {
  const fromUrl = new URLSearchParams(location.search).get('session');
  if (!fromUrl) return sessionStorage.getItem('flowbench.session') ?? '';
  // Stored once the first request is on its way: a page's first storage access takes milliseconds.
  setTimeout(() => sessionStorage.setItem('flowbench.session', fromUrl));
  return fromUrl;
}

/** The same contract over HTTP and server-sent events, for `flowbench serve`. */
function httpTransport(): ApiTransport {
  const token = sessionToken();
  const listeners = new Set<(event: HostEvent) => void>();
  let source: EventSource | undefined;
  const connect = () => {
    source = new EventSource(`api/events?session=${encodeURIComponent(token)}`);
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as HostEvent;
      for (const listener of listeners) listener(event);
    };
  };
  return {
    async invoke(service, method, args) {
      try {
        const response = await fetch(`api/${service}/${method}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-flowbench-session': token,
            'x-flowbench-client': CLIENT_ID,
          },
          body: JSON.stringify(args),
        });
        const body = await response.text();
        try {
          return JSON.parse(body) as ApiReply;
        } catch {
          const message = `Flowbench answered ${service}.${method} with HTTP ${response.status} and no API reply`;
          return { ok: false, error: { code: 'INTERNAL_ERROR', message } };
        }
      } catch (error) {
        // The host is gone (serve stopped, restarting) before or while it answered:
        // say so as the API's own error, which the app shows and retries where it can.
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: { code: 'HOST_UNREACHABLE', message: `Flowbench is not reachable: ${message}` } };
      }
    },
    subscribe(listener) {
      if (!source) connect();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The renderer cannot tell the two hosts apart: both implement ApiTransport. */
const host: ApiTransport = window.flowbench?.api ?? httpTransport();

/** A prefetched reply older than this is not handed out: the data may have changed since. */
const PREFETCH_FRESH_MS = 5000;
const prefetched = new Map<string, { reply: Promise<ApiReply>; at: number }>();
const keyOf = (service: string, method: string, args: unknown) => `${service}.${method} ${JSON.stringify(args)}`;

/** Starts a call now; the app's first identical call (same arguments, in the same order) gets its reply. */
export function prefetch(service: string, method: string, args: unknown): void {
  const reply = host.invoke(service, method, args);
  reply.catch(() => undefined);
  prefetched.set(keyOf(service, method, args), { reply, at: performance.now() });
}

export const transport: ApiTransport = {
  invoke(service, method, args) {
    const key = keyOf(service, method, args);
    const early = prefetched.get(key);
    prefetched.delete(key);
    if (early && performance.now() - early.at < PREFETCH_FRESH_MS) return early.reply;
    return host.invoke(service, method, args);
  },
  subscribe: (listener) => host.subscribe(listener),
};
