import { useEffect } from 'react';
import { formatCost } from '../../../core/model/pricing';
import type { RunStatus, RunTrigger } from '../../../core/model/run';
import { useAppStore } from '../store/app-store';

const TRIGGERS: readonly RunTrigger[] = ['editor', 'cli', 'mcp', 'test'];
const STATUSES: readonly RunStatus[] = [
  'succeeded',
  'partial',
  'failed',
  'stopped',
  'cancelled',
  'interrupted',
  'running',
];

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
      <div className="run-filters">
        <select
          aria-label="Started from"
          value={filter.trigger ?? ''}
          onChange={(e) =>
            setRunFilter({ ...filter, trigger: (e.target.value || undefined) as RunTrigger | undefined })
          }
        >
          <option value="">from anywhere</option>
          {TRIGGERS.map((t) => (
            <option key={t} value={t}>
              from {t === 'test' ? 'test cases' : t}
            </option>
          ))}
        </select>
        <select
          aria-label="Ended"
          value={filter.status ?? ''}
          onChange={(e) => setRunFilter({ ...filter, status: (e.target.value || undefined) as RunStatus | undefined })}
        >
          <option value="">any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
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
              aria-label={`Delete run ${run.id.slice(0, 8)}`}
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
