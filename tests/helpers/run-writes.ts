import type { Flow } from '../../core/model/flow';
import { RUN_FINISH_KEYS, RUN_START_KEYS, type RunWrite } from '../../core/store/run-statements';

type Value = string | number | null;

/**
 * The writes that store a finished run of `flow` as the run log makes them:
 * its snapshot (hash h1), then the run, with `fields` over the defaults.
 */
export function finishedRunWrites(
  flow: Flow,
  runId: string,
  at: number,
  fields: Record<string, Value> = {},
): RunWrite[] {
  const values: Record<string, Value> = {
    id: runId,
    flowId: flow.id,
    flowName: flow.name,
    snapshotHash: 'h1',
    inputs: '{}',
    trigger: 'mcp',
    hostPid: 1,
    startedAt: at,
    status: 'succeeded',
    finishedAt: at,
    durationMs: 0,
    ...fields,
  };
  return [
    ['insertSnapshot', ['h1', JSON.stringify(flow), at]],
    ['insertFinishedRun', [...RUN_START_KEYS, ...RUN_FINISH_KEYS].map((key) => values[key] ?? null) as never],
  ];
}
