import type { AbortSignalLike } from './abort';
import type { RunOutput, RunStatus, StepError } from './run';
import type { ToolInfo } from './tools';

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
  /** A published flow as a tool an agent may call (server FLOWBENCH_SERVER). Throws like `run`. */
  describe(flow: string): ToolInfo;
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

/** A called flow's result as one value: its structured data, its one text, or its texts by id. */
export function subflowOutput(output: RunOutput | undefined): unknown {
  if (!output) return null;
  if (output.kind === 'structured') return output.data;
  if (output.values.length === 1) return output.values[0]?.text ?? '';
  return Object.fromEntries(output.values.map((v) => [v.id, v.text]));
}
