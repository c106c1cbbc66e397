import type { AbortSignalLike } from './abort';
import type { RunOutput, RunStatus, StepError } from './run';

/** What a flow node gets back from the flow it called. */
export interface SubflowResult {
  runId: string;
  status: RunStatus;
  output?: RunOutput;
  error?: StepError;
}

/**
 * How a flow node runs another saved flow's latest published version; the
 * child run is recorded like any other, linked to its parent. Throws
 * FLOW_NOT_FOUND, SUBFLOW_NOT_PUBLISHED or SUBFLOW_CYCLE before it starts.
 */
export interface SubflowPort {
  run(request: {
    flow: string;
    inputs: Record<string, unknown>;
    parentRunId: string;
    /** The flows of the runs above this one, outermost first: a call back into one of them is a cycle. */
    callers: readonly string[];
    signal: AbortSignalLike;
    /** Called with the child's run id as soon as it started, so the canvas can link it live. */
    onStarted?: (runId: string) => void;
  }): Promise<SubflowResult>;
}
