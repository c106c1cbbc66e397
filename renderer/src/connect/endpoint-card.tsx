import { useCallback, useState } from 'react';
import { useHostInfo } from '../api/use-host-info';
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
  const { items: endpoint, act, message } = useListing(load);
  const isApp = useHostInfo()?.kind === 'electron';
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
      {isApp && (
        <PortField
          current={new URL(endpoint.http.url).port}
          change={(port) => act(() => api.clients.setPort({ port }))}
        />
      )}
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}

/** The desktop app's port: moved at once, kept for later launches (FLOWBENCH_PORT still wins). */
function PortField({ current, change }: { current: string; change: (port: number) => Promise<boolean> }) {
  const [port, setPort] = useState(current);
  const valid = /^\d{1,5}$/.test(port) && Number(port) <= 65535;
  return (
    <form
      className="port-field"
      onSubmit={(event) => {
        event.preventDefault();
        // A port in use is refused with the reason, shown under the card (useListing).
        void change(Number(port));
      }}
    >
      <label className="field inline" htmlFor="endpoint-port">
        <span className="field-label">Port</span>
        <input id="endpoint-port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value.trim())} />
      </label>{' '}
      <button type="submit" disabled={!valid || port === current}>
        Serve on this port
      </button>
    </form>
  );
}
