import { useCallback, useEffect } from 'react';
import { api, transport } from '../api/client';
import { useAppStore } from '../store/app-store';
import { useListing } from '../use-listing';
import { runsMayHaveChanged } from '../runs/runs-changed';
import { readWhenWritten } from '../read-when-written';

/**
 * The latest calls MCP clients made (runs with trigger `mcp`): the tool's
 * flow, the client, how long it took and how it ended; a click opens the run
 * over its flow. New calls appear as they finish.
 */
export function RecentMcpCalls() {
  const load = useCallback(() => readWhenWritten(() => api.runs.list({ trigger: 'mcp', limit: 20 })), []);
  const { items: calls, message, act } = useListing(load);
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (runsMayHaveChanged(event)) void act(async () => {});
      }),
    [act],
  );
  return (
    <section className="client-card recent-calls" aria-label="Recent MCP calls">
      <h2>Recent MCP calls</h2>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      {calls && calls.length === 0 && <p className="muted">No client has called a flow yet.</p>}
      {calls && calls.length > 0 && (
        <table className="runs-table">
          <thead>
            <tr>
              <th>Tool (flow)</th>
              <th>Client</th>
              <th>Took</th>
              <th>Status</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((run) => (
              <tr key={run.id}>
                <td>
                  <button className="link" onClick={() => useAppStore.getState().openRunOf(run)}>
                    {run.flowName}
                    {run.flowVersion !== undefined ? ` v${run.flowVersion}` : ''}
                  </button>
                </td>
                <td>{run.client ?? '—'}</td>
                <td>{run.durationMs !== undefined ? `${run.durationMs} ms` : '…'}</td>
                <td className={`run-${run.status}`}>{run.status}</td>
                <td className="muted">{new Date(run.startedAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
