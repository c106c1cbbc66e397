import type { RunEventListener } from '../model/run';
import type { RunRepository, RunStart } from './run-repository';

export type RecorderStart = Omit<RunStart, 'runId' | 'startedAt' | 'inputs'>;

/**
 * Records a run's events as they happen: each event is queued on the run
 * repository, which writes the queue in one transaction per turn of the event
 * loop (see RunRepository.enqueue).
 */
export function createRunRecorder(runs: RunRepository, meta: RecorderStart): RunEventListener {
  let start: RunStart | undefined;
  const seq = new Map<string, number>();
  const seqOf = (nodeId: string) => {
    let n = seq.get(nodeId);
    if (n === undefined) {
      n = seq.size;
      seq.set(nodeId, n);
    }
    return n;
  };
  return (event) => {
    if (event.type === 'node.token') return;
    if (event.type === 'run.started') {
      start = { ...meta, runId: event.runId, inputs: event.inputs, startedAt: event.at };
      return;
    }
    if ('nodeId' in event) seqOf(event.nodeId);
    runs.enqueue([event], seqOf, start);
    start = undefined;
  };
}
