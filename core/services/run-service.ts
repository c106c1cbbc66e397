import { runFlow, type RunOptions } from '../engine/run-flow';
import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { LlmPort } from '../model/llm';
import type { RunEventListener, RunRecord, RunTrigger } from '../model/run';
import type { ReuseSource } from '../engine/reuse';
import { RunRecordBuilder } from '../model/run-record';
import { createRunRecorder } from '../store/run-recorder';
import type { RunLog } from '../store/run-log';

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
  /**
   * Run from a node ("run from here"): `nodeId` and what depends on it run,
   * every other node reuses its output from run `runId`, whose inputs are
   * the defaults of `inputs`.
   */
  from?: { nodeId: string; runId: string };
}

/** Runs flows with every event recorded; keeps the runs started in the background so they can be cancelled. */
export class RunService {
  /** Runs started with `start` and not finished yet, by run id. */
  private readonly active = new Map<string, AbortController>();

  constructor(
    private readonly log: RunLog,
    private readonly llm: () => LlmPort,
    /** Reads a stored run (RunRepository.get), for runs that reuse one. */
    private readonly readRun: (id: string) => RunRecord,
  ) {}

  /** Runs the flow; the record returned is the one stored, committed before it is returned. */
  async run(request: StartRun): Promise<RunRecord> {
    const meta = {
      trigger: request.trigger,
      ...(request.flowVersion !== undefined ? { flowVersion: request.flowVersion } : {}),
      ...(request.client !== undefined ? { client: request.client } : {}),
    };
    const recorder = createRunRecorder(this.log, { flow: request.flow, ...meta });
    const builder = new RunRecordBuilder({ flowName: request.flow.name, ...meta });
    const reuse = request.from ? this.reuseSource(request.flow, request.from) : undefined;
    await runFlow({
      flow: request.flow,
      inputs: reuse ? { ...reuse.inputs, ...request.inputs } : request.inputs,
      ...(reuse ? { reuse: reuse.source } : {}),
      llm: this.llm(),
      listeners: [recorder, (event) => builder.apply(event), ...(request.listeners ?? [])],
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...request.engine,
    });
    // Whoever gets the record next passes it on (an MCP result, a CLI line): it is stored first.
    await this.log.durable();
    const record = builder.record();
    const unstored = this.log.unstoredReason(record.id);
    if (unstored !== undefined) {
      throw new FlowbenchError(
        'DATABASE_ERROR',
        `run ${record.id} ended ${record.status} but could not be stored: ${unstored}`,
        { runId: record.id, status: record.status },
      );
    }
    return record;
  }

  /** The earlier run a run from a node reuses; it must be a run of the same flow. */
  private reuseSource(
    flow: Flow,
    from: { nodeId: string; runId: string },
  ): { source: ReuseSource; inputs: Record<string, unknown> } {
    const earlier = this.readRun(from.runId);
    if (earlier.flowId !== flow.id) {
      throw new FlowbenchError(
        'REUSE_UNAVAILABLE',
        `run ${earlier.id} is a run of "${earlier.flowName}", not of "${flow.name}"`,
        { runId: earlier.id },
      );
    }
    const steps = new Map(earlier.steps.map((step) => [step.nodeId, step]));
    return { source: { fromNodeId: from.nodeId, runId: earlier.id, steps }, inputs: earlier.inputs };
  }

  /**
   * Starts a run in the background and resolves with its id once it started;
   * its events reach `request.listeners`. Fails only when the run cannot start.
   */
  start(request: Omit<StartRun, 'signal'>): Promise<{ runId: string }> {
    const controller = new AbortController();
    return new Promise((resolve, reject) => {
      let runId: string | undefined;
      const onStart: RunEventListener = (event) => {
        if (event.type !== 'run.started') return;
        runId = event.runId;
        this.active.set(runId, controller);
        resolve({ runId });
      };
      this.run({ ...request, signal: controller.signal, listeners: [onStart, ...(request.listeners ?? [])] })
        .then(
          () => undefined,
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        )
        .finally(() => {
          if (runId) this.active.delete(runId);
        });
    });
  }

  /** Cancels a run `start` began. Throws RUN_NOT_FOUND when it is not running here. */
  cancel(runId: string, reason: string): void {
    const controller = this.active.get(runId);
    if (!controller) throw new FlowbenchError('RUN_NOT_FOUND', `run ${runId} is not running`);
    controller.abort(new FlowbenchError('CANCELLED', reason));
  }
}
