import { RUN_STATUSES, RUN_TRIGGERS, type RunStatus, type RunTrigger } from '../../../core/model/run';

export interface RunFilter {
  trigger?: RunTrigger;
  status?: RunStatus;
}

/** Where runs came from and how they ended: the two selects the Run tab and the All runs page filter by. */
export function RunFilters({ filter, onChange }: { filter: RunFilter; onChange: (filter: RunFilter) => void }) {
  const without = (key: keyof RunFilter): RunFilter => {
    const { [key]: _dropped, ...rest } = filter;
    void _dropped;
    return rest;
  };
  return (
    <div className="run-filters">
      <select
        aria-label="Started from"
        value={filter.trigger ?? ''}
        onChange={(e) =>
          onChange(e.target.value ? { ...filter, trigger: e.target.value as RunTrigger } : without('trigger'))
        }
      >
        <option value="">from anywhere</option>
        {RUN_TRIGGERS.map((t) => (
          <option key={t} value={t}>
            from {t === 'test' ? 'test cases' : t}
          </option>
        ))}
      </select>
      <select
        aria-label="Ended"
        value={filter.status ?? ''}
        onChange={(e) =>
          onChange(e.target.value ? { ...filter, status: e.target.value as RunStatus } : without('status'))
        }
      >
        <option value="">any status</option>
        {RUN_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
