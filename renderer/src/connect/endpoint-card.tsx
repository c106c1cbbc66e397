import { useCallback } from 'react';
import { api } from '../api/client';
import { useListing } from '../use-listing';
import { CopyButton } from './copy-button';

/**
 * Where clients reach this Flowbench: the HTTP URL and its bearer token (the
 * app serves it while it runs; `flowbench serve` does in the browser), each
 * with a copy button, and the stdio command, which needs nothing running.
 */
export function EndpointCard() {
  const load = useCallback(() => api.clients.endpoint({}), []);
  const { items: endpoint } = useListing(load);
  if (!endpoint) return null;
  const authorization = endpoint.http.headers.Authorization ?? '';
  const token = authorization.replace(/^Bearer /, '');
  // The app's entry runs its own binary as Node: the variable that says so is part of the command.
  const env = Object.entries(endpoint.stdio.env ?? {}).map(([name, value]) => `${name}=${value}`);
  const stdio = [...env, endpoint.stdio.command, ...endpoint.stdio.args].join(' ');
  return (
    <section className="client-card endpoint-card" aria-label="MCP endpoint">
      <h2>MCP endpoint</h2>
      <p className="muted">
        {endpoint.serving?.running
          ? 'Serving now, on 127.0.0.1 only, for clients that connect over HTTP.'
          : 'Not serving HTTP now: start `flowbench serve`, or use the stdio command.'}
      </p>
      {endpoint.serving?.note && (
        <p className="warning-text" role="status">
          {endpoint.serving.note}
        </p>
      )}
      <dl className="endpoint-fields">
        <dt>URL</dt>
        <dd>
          <code data-testid="endpoint-url">{endpoint.http.url}</code>{' '}
          <CopyButton text={endpoint.http.url} label="Copy URL" />
        </dd>
        <dt>Token</dt>
        <dd>
          <code data-testid="endpoint-token">{`${token.slice(0, 6)}…`}</code>{' '}
          <CopyButton text={authorization} label="Copy header" />
          <small className="muted"> sent as Authorization: Bearer …</small>
        </dd>
        <dt>stdio</dt>
        <dd>
          <code>{stdio}</code> <CopyButton text={stdio} label="Copy command" />
        </dd>
      </dl>
    </section>
  );
}
