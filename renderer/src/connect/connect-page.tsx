import { useState } from 'react';
import type { ClientSetup, WriteResult } from '../../../core/model/client-setup';
import { toFlowbenchError } from '../../../core/model/errors';
import { api } from '../api/client';
import { useListing } from '../use-listing';
import { RecentMcpCalls } from './recent-calls';
import { CopyButton } from './copy-button';
import { EndpointCard } from './endpoint-card';
import { BackToFlows } from '../page-link';

const loadClients = () => api.clients.list({});

/**
 * Connect a client: for each desktop MCP client, the exact config Flowbench
 * needs (copy), and a button that writes it into the client's own config file,
 * beside the servers already there, after a backup.
 */
export function ConnectPage() {
  const { items: clients, message, act } = useListing(loadClients);
  return (
    <main className="providers-page connect-page">
      <header className="home-header">
        <BackToFlows />
        <h1>Connect a client</h1>
      </header>
      <p className="muted">
        Published flows are tools in these clients. The stdio entry starts Flowbench itself; the HTTP entry needs this
        app, or <code>flowbench serve</code>, running. Restart the client after writing its config.
      </p>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <EndpointCard />
      <RecentMcpCalls />
      {clients?.map((setup) => (
        <ClientCard key={setup.client} setup={setup} reload={() => act(async () => {})} />
      ))}
    </main>
  );
}

function ClientCard({ setup, reload }: { setup: ClientSetup; reload: () => Promise<boolean> }) {
  const [outcome, setOutcome] = useState<{ written?: WriteResult; error?: string } | undefined>();
  const text = JSON.stringify(setup.snippet, null, 2);
  const write = async () => {
    try {
      setOutcome({ written: await api.clients.write({ client: setup.client }) });
      await reload();
    } catch (error) {
      setOutcome({ error: toFlowbenchError(error).message });
    }
  };
  return (
    <section className="client-card" aria-label={setup.label}>
      <h2>{setup.label}</h2>
      <p className="muted">
        <code>{setup.file}</code> {setup.fileExists ? '' : '(not there yet: writing creates it)'}
      </p>
      <pre className="client-snippet">{text}</pre>
      <p className="client-actions">
        <CopyButton text={text} /> <button onClick={() => void write()}>Write into {setup.label}'s config</button>
      </p>
      {outcome?.written && (
        <p role="status" className="client-written">
          Wrote {outcome.written.file}:{' '}
          {outcome.written.added.length > 0 ? `added ${outcome.written.added.join(', ')}; ` : ''}
          {outcome.written.updated.length > 0 ? `updated ${outcome.written.updated.join(', ')}; ` : ''}
          kept {outcome.written.kept.length} other server{outcome.written.kept.length === 1 ? '' : 's'}.
          {outcome.written.backup ? ` The file as it was: ${outcome.written.backup}` : ''}
        </p>
      )}
      {outcome?.error && (
        <p className="error" role="alert">
          {outcome.error}
        </p>
      )}
    </section>
  );
}
