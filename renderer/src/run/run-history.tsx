import { useEffect } from 'react';
import { shortRunId } from '../../../core/model/run';
import { formatCost } from '../../../core/model/pricing';
import { useAppStore } from '../store/app-store';
import { RunFilters } from './run-filters';

/**
 * The flow's runs (from the editor, the CLI, MCP clients and test cases),
 * newest first, filtered by where they came from and how they ended; a click
 * shows one. Listed again whenever a run ends.
 */
export function RecentRuns() {
  const runs = useAppStore((s) => s.recentRuns);
  const shown = useAppStore((s) => s.run?.id);
  const filter = useAppStore((s) => s.runFilter);
  const hasMore = useAppStore((s) => s.hasMoreRuns);
  const { setRunFilter, openRun, deleteRun, loadMoreRuns } = useAppStore.getState();
  useEffect(() => {
    void useAppStore.getState().loadRecentRuns();
  }, []);
  return (
    <section className="recent-runs" aria-label="Recent runs">
      <h3>Runs</h3>
      <RunFilters filter={filter} onChange={setRunFilter} />
      {runs.length === 0 && <p className="muted">No runs{filter.trigger || filter.status ? ' match' : ' yet'}.</p>}
      <ul>
        {runs.map((run) => (
          <li key={run.id} className="recent-run">
            <button
              className={`link run-${run.status}`}
              aria-current={run.id === shown ? 'true' : undefined}
              onClick={() => void openRun(run.id)}
            >
              {run.status} · {run.trigger}
              {run.client ? ` (${run.client})` : ''} · {new Date(run.startedAt).toLocaleTimeString()}
              {run.durationMs !== undefined ? ` · ${(run.durationMs / 1000).toFixed(2)} s` : ''}
              {run.usage?.cost !== undefined ? ` · ${formatCost(run.usage.cost)}` : ''}
            </button>
            <button
              className="small"
              aria-label={`Delete run ${shortRunId(run.id)}`}
              title="Delete this run"
              onClick={() => void deleteRun(run.id)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {hasMore && (
        <button className="small" onClick={() => void loadMoreRuns()}>
          More
        </button>
      )}
    </section>
  );
}
