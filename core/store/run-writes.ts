import type { RunEvent, StepStatus } from '../model/run';
import type { RunStart } from './run-log';
import type { RunWrite } from './run-statements';

/** A run being recorded: its start (until written) and the order its steps appeared in. */
export interface RecordedRun {
  start?: RunStart;
  seq: Map<string, number>;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** A step's position in the run: the order its node (or its node's pass of a loop) first appeared. */
function seqOf(run: RecordedRun, nodeId: string, iteration: number): number {
  const key = iteration === 1 ? nodeId : `${nodeId}\u0000${iteration}`;
  let seq = run.seq.get(key);
  if (seq === undefined) {
    seq = run.seq.size;
    run.seq.set(key, seq);
  }
  return seq;
}

/** An upsertStep write; `null` leaves what an earlier event of the step stored (see the statement). */
function stepWrite(
  event: RunEvent & { nodeId: string; iteration?: number },
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
    retries?: unknown;
    toolCalls?: unknown;
    childRunId?: string | undefined;
    origin?: 'passed-over' | 'pinned' | undefined;
    warnings?: string[] | undefined;
  },
): RunWrite {
  return [
    'upsertStep',
    [
      event.runId,
      event.nodeId,
      seqOf(run, event.nodeId, event.iteration ?? 1),
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
      json(step.retries),
      json(step.toolCalls),
      step.childRunId ?? null,
      event.iteration ?? 1,
      step.origin ?? null,
      json(step.warnings),
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
        retries: event.retries,
        toolCalls: event.toolCalls,
        childRunId: event.childRunId,
        origin: event.passedOver ? 'passed-over' : event.pinned ? 'pinned' : undefined,
        warnings: event.warnings,
      });
    case 'node.failed':
      return stepWrite(event, run, event.willRetry ? 'running' : 'failed', {
        attempts: event.attempt,
        input: event.input,
        errorCode: event.error.code,
        errorMessage: event.error.message,
        messages: event.messages,
        finishedAt: event.willRetry ? null : event.at,
        retries: event.retries,
        toolCalls: event.toolCalls,
        childRunId: event.childRunId,
        warnings: event.warnings,
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
    case 'node.tool':
      return undefined;
  }
}

type StepParams = Extract<RunWrite, ['upsertStep', unknown]>[1];
type RunStartParams = Extract<RunWrite, ['insertRun', unknown]>[1];
type RunFinishParams = Extract<RunWrite, ['finishRun', unknown]>[1];

/**
 * One step write standing for two in a row, exactly as the upsert statement
 * would combine them: the latest status, error and finish time; the highest
 * attempt count; the latest value of what later events may leave null; the
 * first start time.
 */
function mergeStep(a: StepParams, b: StepParams): StepParams {
  const merged = [...b] as StepParams;
  merged[2] = a[2];
  merged[4] = Math.max(Number(a[4]), Number(b[4]));
  merged[5] = b[5] ?? a[5];
  merged[6] = b[6] ?? a[6];
  merged[9] = b[9] ?? a[9];
  merged[10] = b[10] ?? a[10];
  merged[11] = a[11] ?? b[11];
  merged[13] = b[13] ?? a[13];
  merged[14] = b[14] ?? a[14];
  merged[15] = b[15] ?? a[15];
  merged[18] = b[18] ?? a[18];
  return merged;
}

/**
 * The same records in fewer writes: each step of the batch written once, and
 * a run that started and finished within the batch inserted once with its
 * outcome. A short run then costs two statements instead of four or more,
 * which is most of the commit an MCP answer waits for. Snapshots come first
 * and runs before their steps, as the foreign keys need.
 */
export function mergeWrites(writes: readonly RunWrite[]): RunWrite[] {
  /** Writes that go first as they are: snapshots (runs point at them). */
  const leading: RunWrite[] = [];
  const started = new Map<string, { start: RunStartParams; finish?: RunFinishParams }>();
  // By run, then by the step's position in it (its seq): no key string is built per write.
  const steps = new Map<string, Map<number, StepParams>>();
  const finished = new Map<string, RunFinishParams>();
  for (const write of writes) {
    switch (write[0]) {
      case 'insertSnapshot':
      case 'insertFinishedRun':
        leading.push(write);
        break;
      case 'insertRun':
        started.set(String(write[1][0]), { start: write[1] });
        break;
      case 'upsertStep': {
        const runId = String(write[1][0]);
        const seq = Number(write[1][2]);
        let ofRun = steps.get(runId);
        if (!ofRun) steps.set(runId, (ofRun = new Map<number, StepParams>()));
        const earlier = ofRun.get(seq);
        ofRun.set(seq, earlier ? mergeStep(earlier, write[1]) : write[1]);
        break;
      }
      case 'finishRun': {
        const runId = write[1][7];
        const run = started.get(runId);
        if (run) run.finish = write[1];
        else finished.set(runId, write[1]);
        break;
      }
    }
  }
  const merged: RunWrite[] = [...leading];
  for (const { start, finish } of started.values()) {
    if (!finish) {
      merged.push(['insertRun', start]);
      continue;
    }
    const [status, output, errorCode, errorMessage, errorNodeId, finishedAt, durationMs] = finish;
    merged.push([
      'insertFinishedRun',
      [...start, status, output, errorCode, errorMessage, errorNodeId, finishedAt, durationMs],
    ]);
  }
  for (const ofRun of steps.values()) for (const step of ofRun.values()) merged.push(['upsertStep', step]);
  for (const finish of finished.values()) merged.push(['finishRun', finish]);
  return merged;
}

/** The run a write belongs to. */
export function runIdOf(write: RunWrite): string {
  switch (write[0]) {
    case 'finishRun':
      return write[1][7];
    case 'insertSnapshot':
    case 'markJournal':
      return '';
    default:
      return String(write[1][0]);
  }
}
