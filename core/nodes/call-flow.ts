import type { AbortSignalLike } from '../model/abort';
import { FlowbenchError } from '../model/errors';
import { subflowOutput } from '../model/subflows';
import type { NodeContext } from './define-node';

/**
 * Runs a saved flow's published version as a child run of this one (a flow
 * node, or an agent's flow used as a tool); a child run that did not succeed
 * is SUBFLOW_FAILED naming it. `onStarted` gets the child's run id at once.
 */
export async function callFlow(
  ctx: NodeContext,
  flow: string,
  inputs: Record<string, unknown>,
  signal: AbortSignalLike,
  onStarted?: (runId: string) => void,
): Promise<{ runId: string; output: unknown }> {
  const result = await ctx.subflows.run({
    flow,
    inputs,
    parentRunId: ctx.runId,
    callers: ctx.callers,
    signal,
    ...(onStarted ? { onStarted } : {}),
  });
  if (result.status !== 'succeeded') {
    throw new FlowbenchError(
      'SUBFLOW_FAILED',
      `flow "${flow}" ended ${result.status}${result.error ? `: ${result.error.code}: ${result.error.message}` : ''} (run ${result.runId})`,
      { runId: result.runId, status: result.status },
    );
  }
  return { runId: result.runId, output: subflowOutput(result.output) };
}
