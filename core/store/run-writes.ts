import type { RunEvent, StepStatus } from '../model/run';
import type { RunStart } from './run-log';
import type { RunWrite } from './run-statements';

/** A run being recorded: its start (until written) and the order its steps appeared in. */
export interface RecordedRun {
  start?: RunStart;
  seq: Map<string, number>;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** A step's position in the run: the order its node first appeared. */
function seqOf(run: RecordedRun, nodeId: string): number {
  let seq = run.seq.get(nodeId);
  if (seq === undefined) {
    seq = run.seq.size;
    run.seq.set(nodeId, seq);
  }
  return seq;
}

/** An upsertStep write; `null` leaves what an earlier event of the step stored (see the statement). */
function stepWrite(
  event: RunEvent & { nodeId: string },
  run: RecordedRun,
  status: StepStatus,
  step: {
    attempts?: number;
    input?: unknown;
    output?: unknown;
    errorCode?: string;
    errorMessage?: string;
    usage?: unknown;
    messages?: unknown;
    startedAt?: number;
    finishedAt?: number | null;
  },
): RunWrite {
  return [
    'upsertStep',
    [
      event.runId,
      event.nodeId,
      seqOf(run, event.nodeId),
      status,
      step.attempts ?? 0,
      json(step.input),
      json(step.output),
      step.errorCode ?? null,
      step.errorMessage ?? null,
      json(step.usage),
      json(step.messages),
      step.startedAt ?? null,
      step.finishedAt ?? null,
    ],
  ];
}

/** The write one engine event makes, if any. */
export function eventWrite(event: RunEvent, run: RecordedRun): RunWrite | undefined {
  switch (event.type) {
    case 'node.started':
      return stepWrite(event, run, 'running', { attempts: event.attempt, startedAt: event.at });
    case 'node.finished':
      return stepWrite(event, run, 'succeeded', {
        attempts: event.attempts,
        input: event.input,
        output: event.output,
        usage: event.usage,
        messages: event.messages,
        finishedAt: event.at,
      });
    case 'node.failed':
      return stepWrite(event, run, event.willRetry ? 'running' : 'failed', {
        attempts: event.attempt,
        input: event.input,
        errorCode: event.error.code,
        errorMessage: event.error.message,
        messages: event.messages,
        finishedAt: event.willRetry ? null : event.at,
      });
    case 'node.skipped':
      return stepWrite(event, run, 'skipped', { finishedAt: event.at });
    case 'node.cancelled':
      return stepWrite(event, run, 'cancelled', {
        errorCode: 'CANCELLED',
        errorMessage: 'the run ended before this node finished',
        finishedAt: event.at,
      });
    case 'run.finished':
      return [
        'finishRun',
        [
          event.status,
          json(event.output),
          event.error?.code ?? null,
          event.error?.message ?? null,
          event.error?.nodeId ?? null,
          event.at,
          event.durationMs,
          event.runId,
        ],
      ];
    case 'run.started':
    case 'node.token':
      return undefined;
  }
}
