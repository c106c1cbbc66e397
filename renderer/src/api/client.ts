import { createApiClient, type ApiReply, type ApiTransport, type HostEvent } from '../../../core/api/contract';

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
  if (fromUrl) sessionStorage.setItem('flowbench.session', fromUrl);
  return fromUrl ?? sessionStorage.getItem('flowbench.session') ?? '';
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
      const response = await fetch(`api/${service}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-flowbench-session': token, 'x-flowbench-client': CLIENT_ID },
        body: JSON.stringify(args),
      });
      return (await response.json()) as ApiReply;
    },
    subscribe(listener) {
      if (!source) connect();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The renderer cannot tell the two hosts apart: both implement ApiTransport. */
export const transport: ApiTransport = window.flowbench?.api ?? httpTransport();
export const api = createApiClient(transport);
