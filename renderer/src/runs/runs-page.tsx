import { useCallback, useEffect, useState } from 'react';
import { toFlowbenchError } from '../../../core/model/errors';
import { formatCost } from '../../../core/model/pricing';
import type { RunSummary } from '../../../core/model/run';
import { shortRunId } from '../../../core/model/run';
import { RunFilters, type RunFilter } from '../run/run-filters';
import { api, transport } from '../api/client';
import { useAppStore } from '../store/app-store';
import { runsMayHaveChanged } from './runs-changed';
import { BackToFlows } from '../page-link';
import { readWhenWritten } from '../read-when-written';

const PAGE = 50;
/** Every flow's runs, newest first, like n8n's executions list: filter, page, open one over its flow, delete. */
export function RunsPage() {
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [filter, setFilter] = useState<RunFilter>({});
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const load = useCallback(
    async (offset: number) => {
      try {
        const page = await readWhenWritten(() => api.runs.list({ ...filter, limit: PAGE + 1, offset }));
        setRuns((previous) => [...(offset === 0 ? [] : previous), ...page.slice(0, PAGE)]);
        setHasMore(page.length > PAGE);
        setProblem(undefined);
      } catch (error) {
        setProblem(toFlowbenchError(error).message);
      }
    },
    [filter],
  );
  useEffect(() => {
    void load(0);
  }, [load]);
  // A run that ends anywhere (an MCP client's call, the CLI's through this host) shows up.
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (runsMayHaveChanged(event)) void load(0);
      }),
    [load],
  );

  const remove = async (run: RunSummary) => {
    await api.runs.remove({ ids: [run.id] }).catch((error: unknown) => setProblem(toFlowbenchError(error).message));
    await load(0);
  };

  return (
    <main className="runs-page">
      <header className="home-header">
        <BackToFlows />
        <h1>All runs</h1>
        <RunFilters filter={filter} onChange={setFilter} />
      </header>
      {problem && <p className="error">{problem}</p>}
      {runs.length === 0 && !problem && (
        <p className="muted">No runs{filter.trigger || filter.status ? ' match' : ' yet'}.</p>
      )}
      {runs.length > 0 && (
        <table className="runs-table">
          <thead>
            <tr>
              <th>Flow</th>
              <th>Status</th>
              <th>Started by</th>
              <th>Started</th>
              <th>Took</th>
              <th>Cost</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <td>
                  <button className="link" onClick={() => useAppStore.getState().openRunOf(run)}>
                    {run.flowName}
                  </button>
                </td>
                <td className={`run-${run.status}`}>
                  {run.status}
                  {/* Why it ended so, at a glance; the whole message on hover and in the run itself. */}
                  {run.error && (
                    <span className="run-error-code" title={run.error.message}>
                      {run.error.code}
                      {run.error.nodeId ? ` at ${run.error.nodeId}` : ''}
                    </span>
                  )}
                </td>
                <td>
                  {run.trigger}
                  {run.client ? ` (${run.client})` : ''}
                </td>
                <td>{new Date(run.startedAt).toLocaleString()}</td>
                <td>{run.durationMs !== undefined ? `${(run.durationMs / 1000).toFixed(2)} s` : ''}</td>
                <td>{run.usage?.cost !== undefined ? formatCost(run.usage.cost) : ''}</td>
                <td>
                  <button
                    className="small"
                    aria-label={`Delete run ${shortRunId(run.id)}`}
                    onClick={() => void remove(run)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasMore && <button onClick={() => void load(runs.length)}>More</button>}
    </main>
  );
}
