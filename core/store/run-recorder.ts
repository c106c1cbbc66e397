import type { RunEvent, RunEventListener } from '../model/run';
import type { RunRepository, RunStart } from './run-repository';

export type RecorderStart = Omit<RunStart, 'runId' | 'startedAt' | 'inputs'>;

/**
 * Writes a run's events to the database as they happen. Events are batched per
 * turn of the event loop into one transaction (a run that finishes within one
 * turn is one transaction); the finish is written at once, so the record is
 * complete when runFlow returns.
 */
export function createRunRecorder(runs: RunRepository, meta: RecorderStart): RunEventListener {
  let pending: RunEvent[] = [];
  let start: RunStart | undefined;
  let isScheduled = false;
  const seq = new Map<string, number>();
  const seqOf = (nodeId: string) => {
    let n = seq.get(nodeId);
    if (n === undefined) {
      n = seq.size;
      seq.set(nodeId, n);
    }
    return n;
  };
  const flush = () => {
    isScheduled = false;
    const batch = pending;
    const first = start;
    pending = [];
    start = undefined;
    runs.apply(batch, seqOf, first);
  };
  return (event) => {
    if (event.type === 'node.token') return;
    if (event.type === 'run.started')
      start = { ...meta, runId: event.runId, inputs: event.inputs, startedAt: event.at };
    else {
      if ('nodeId' in event) seqOf(event.nodeId);
      pending.push(event);
    }
    if (event.type === 'run.finished') flush();
    else if (!isScheduled) {
      isScheduled = true;
      setImmediate(flush);
    }
  };
}
