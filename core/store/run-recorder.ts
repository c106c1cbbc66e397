import type { RunEventListener } from '../model/run';
import type { RecordedRun, RunLog, RunStart } from './run-log';

export type RecorderStart = Omit<RunStart, 'runId' | 'startedAt' | 'inputs'>;

/**
 * Records a run's events as they happen: each event joins the run
 * log's queue, which is written in one batch per group commit
 * (see RunLog.enqueue).
 */
export function createRunRecorder(log: RunLog, meta: RecorderStart): RunEventListener {
  const run: RecordedRun = { seq: new Map() };
  return (event) => {
    // Tokens and tool calls in flight are for live views; the step's final event carries what is stored.
    if (event.type === 'node.token' || event.type === 'node.tool') return;
    if (event.type === 'run.started') {
      run.start = {
        ...meta,
        runId: event.runId,
        inputs: event.inputs,
        startedAt: event.at,
        ...(event.reuse ? { reuse: event.reuse } : {}),
      };
      return;
    }
    log.enqueue(event, run);
  };
}
