import { runFlow, type RunOptions } from '../engine/run-flow';
import type { Flow } from '../model/flow';
import type { LlmPort } from '../model/llm';
import type { RunEventListener, RunRecord, RunTrigger } from '../model/run';
import { RunRecordBuilder } from '../model/run-record';
import { createRunRecorder } from '../store/run-recorder';
import type { RunRepository } from '../store/run-repository';

export interface StartRun {
  flow: Flow;
  flowVersion?: number;
  inputs: Record<string, unknown>;
  trigger: RunTrigger;
  client?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  listeners?: readonly RunEventListener[];
  engine?: Pick<RunOptions, 'concurrency' | 'retry' | 'defaultNodeTimeoutMs'>;
}

/** Runs a flow with every event recorded, and returns the stored run record. */
export class RunService {
  constructor(
    private readonly runs: RunRepository,
    private readonly llm: () => LlmPort,
  ) {}

  /** Runs the flow; the record returned is the one stored, built from the same events. */
  async run(request: StartRun): Promise<RunRecord> {
    const meta = {
      trigger: request.trigger,
      ...(request.flowVersion !== undefined ? { flowVersion: request.flowVersion } : {}),
      ...(request.client !== undefined ? { client: request.client } : {}),
    };
    const recorder = createRunRecorder(this.runs, { flow: request.flow, ...meta });
    const builder = new RunRecordBuilder({ flowName: request.flow.name, ...meta });
    await runFlow({
      flow: request.flow,
      inputs: request.inputs,
      llm: this.llm(),
      listeners: [recorder, (event) => builder.apply(event), ...(request.listeners ?? [])],
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...request.engine,
    });
    return builder.record();
  }
}
