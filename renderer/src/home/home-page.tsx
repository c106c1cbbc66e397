import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppStore } from '../store/app-store';
import { ImportProblemsDialog } from './import-problems-dialog';
import { NameDialog } from './name-dialog';
import { ExportMenu } from './export-menu';
import { NoProviderNotice } from '../providers/no-provider-notice';
import { PageLink } from '../page-link';
import { useNow, When } from '../when';

/** The flows list: search, create, open, duplicate, delete, import, export and the tool switch. */
export function HomePage() {
  const flows = useAppStore((s) => s.flows);
  const problem = useAppStore((s) => s.flowsProblem);
  const refusedImport = useAppStore((s) => s.refusedImport);
  const now = useNow();
  const {
    loadFlows,
    createFlow,
    renameFlow,
    duplicateFlow,
    removeFlow,
    setFlowEnabled,
    importFlowFile,
    exportFlowFile,
    installExamples,
    navigate,
    notify,
  } = useAppStore.getState();
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState<string | undefined>();
  const [naming, setNaming] = useState<{ kind: 'create' } | { kind: 'rename'; id: string; name: string }>();
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void loadFlows();
  }, [loadFlows]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? flows.filter((f) => `${f.name} ${f.toolName} ${f.description}`.toLowerCase().includes(q)) : flows;
  }, [flows, query]);

  const run = (action: () => Promise<unknown>) => () =>
    void action().catch((error: unknown) => notify(error instanceof Error ? error.message : String(error)));

  return (
    <main className="home">
      {refusedImport && (
        <ImportProblemsDialog {...refusedImport} onClose={() => useAppStore.getState().closeRefusedImport()} />
      )}
      {naming && (
        <NameDialog
          title={naming.kind === 'create' ? 'New flow' : `Rename “${naming.name}”`}
          initial={naming.kind === 'create' ? 'Untitled flow' : naming.name}
          confirmLabel={naming.kind === 'create' ? 'Create' : 'Rename'}
          onClose={() => setNaming(undefined)}
          onConfirm={(name) =>
            naming.kind === 'create'
              ? run(async () => navigate({ page: 'editor', flowId: await createFlow(name) }))()
              : name !== naming.name && run(() => renameFlow(naming.id, name))()
          }
        />
      )}
      <header className="home-header">
        <h1>Flowbench</h1>
        <PageLink className="link" to={{ page: 'providers' }}>
          Model providers
        </PageLink>
        <PageLink className="link" to={{ page: 'servers' }}>
          MCP servers
        </PageLink>
        <PageLink className="link" to={{ page: 'secrets' }}>
          Secrets
        </PageLink>
        <PageLink className="link" to={{ page: 'agents' }}>
          Agents
        </PageLink>
        <PageLink className="link" to={{ page: 'runs' }}>
          All runs
        </PageLink>
        <PageLink className="link" to={{ page: 'connect' }}>
          Connect a client
        </PageLink>
        <input
          className="search"
          type="search"
          placeholder="Search flows"
          aria-label="Search flows"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button className="primary" onClick={() => setNaming({ kind: 'create' })}>
          New flow
        </button>
        <button onClick={() => fileInput.current?.click()}>Import…</button>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) run(() => importFlowFile(file))();
          }}
        />
      </header>
      <NoProviderNotice />
      {problem ? (
        <p className="empty error" role="alert">
          {problem.code === 'SESSION_INVALID'
            ? "This page's session is not valid for this Flowbench. Open the editor URL that `flowbench serve` printed."
            : problem.code === 'HOST_UNREACHABLE'
              ? 'Flowbench is not reachable; trying again… (is `flowbench serve` or the app still running?)'
              : `The flows could not be listed: ${problem.message}`}
        </p>
      ) : shown.length === 0 ? (
        <p className="empty">
          {flows.length === 0 ? (
            <>
              No flows yet. Create one, import a file, or{' '}
              <button className="link" onClick={run(installExamples)}>
                add the example flows
              </button>
              .
            </>
          ) : (
            'No flow matches the search.'
          )}
        </p>
      ) : (
        <table className="flows-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Tool name</th>
              <th>Nodes</th>
              <th>Updated</th>
              <th>Offered as a tool</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {shown.map((flow) => (
              <tr key={flow.id} data-testid={`flow-row-${flow.toolName}`}>
                <td>
                  <PageLink to={{ page: 'editor', flowId: flow.id }}>{flow.name}</PageLink>
                  {flow.description && <div className="muted">{flow.description}</div>}
                </td>
                <td>
                  <code>{flow.toolName}</code>
                </td>
                <td>{flow.nodeCount}</td>
                <td>
                  <When at={flow.updatedAt} now={now} />
                </td>
                <td>
                  <label className="switch">
                    <input
                      type="checkbox"
                      checked={flow.enabled}
                      aria-label={`Offer ${flow.name} as a tool`}
                      onChange={run(() => setFlowEnabled(flow.id, !flow.enabled))}
                    />
                    <span>{flow.enabled ? 'on' : 'off'}</span>
                  </label>
                  <div className="muted" data-testid={`published-${flow.toolName}`}>
                    {flow.publishedVersion === undefined
                      ? 'never published: clients do not see it yet'
                      : `published v${flow.publishedVersion}${flow.hasUnpublishedChanges ? ', draft changed since' : ''}`}
                  </div>
                </td>
                <td>
                  {/* A flex box inside the cell: a cell that is one itself draws its border at its own height, not the row's. */}
                  <div className="row-actions">
                    <button onClick={() => setNaming({ kind: 'rename', id: flow.id, name: flow.name })}>Rename</button>
                    <button onClick={run(() => duplicateFlow(flow.id))}>Duplicate</button>
                    <ExportMenu name={flow.name} onExport={(format) => run(() => exportFlowFile(flow.id, format))()} />
                    {confirming === flow.id ? (
                      <>
                        <button
                          className="danger"
                          onClick={run(async () => (setConfirming(undefined), await removeFlow(flow.id)))}
                        >
                          Delete “{flow.name}”?
                        </button>
                        <button onClick={() => setConfirming(undefined)}>Keep</button>
                      </>
                    ) : (
                      <button onClick={() => setConfirming(flow.id)}>Delete</button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
