import { toFlowbenchError } from '../model/errors';
import type { RunRecord } from '../model/run';
import { readMcpRun } from './resources';
import type { Flow } from '../model/flow';
import type { McpToolResult } from '../model/tool-result';
import type { Services } from '../services/open-services';
import { BUILT_IN_TOOL_NAMES } from '../model/ids';
import { FLOW_RUN_INPUT_SCHEMA, flowExecution, unknownArguments } from './flows-tools';

/**
 * Flows longer than a client waits for one tool call (several cut a call off
 * after about 60 s): `flows_start` answers at once with a run id, the run goes
 * on whatever the client does, and `flows_result` waits a bounded time for it
 * and returns the result, or "still running" with progress. Works for every
 * client: it needs nothing beyond tools.
 */
export const FLOWS_START = BUILT_IN_TOOL_NAMES.start;
export const FLOWS_RESULT = BUILT_IN_TOOL_NAMES.result;

/** The longest one flows_result call waits: well under the time clients give a call. */
export const MAX_WAIT_SECONDS = 25;
const DEFAULT_WAIT_SECONDS = 20;
/** How long after a run ends flows_result still gives its result. */
export const RESULT_TTL_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 200;

export const flowsStartTool = {
  name: FLOWS_START,
  title: 'Start a flow',
  description:
    'Starts a flow by name and answers at once with its runId; the run goes on in Flowbench. Call flows_result with the runId to get the result. Use it for flows that take longer than a tool call may.',
  inputSchema: FLOW_RUN_INPUT_SCHEMA,
  annotations: { openWorldHint: true },
};

export const flowsResultTool = {
  name: FLOWS_RESULT,
  title: 'Get a flow result',
  description: `Waits up to waitSeconds (at most ${MAX_WAIT_SECONDS}) for a run flows_start began, then returns its result, or status "running" with progress: call again until it is done. Results are kept for 24 hours after the run ends.`,
  inputSchema: {
    type: 'object',
    properties: {
      runId: { type: 'string', description: 'the runId flows_start returned' },
      waitSeconds: {
        type: 'number',
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `how long to wait for the run to end (default ${DEFAULT_WAIT_SECONDS})`,
      },
    },
    required: ['runId'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** A resource link to a run record, readable with resources/read. */
export const runLink = (runId: string) => ({
  type: 'resource_link' as const,
  uri: `flowbench://runs/${runId}`,
  name: `run ${runId}`,
  mimeType: 'application/json',
  description: 'The stored run: every step with its input, output and timing',
});

const structured = (
  value: Record<string, unknown>,
  isError = false,
  extra: McpToolResult['content'] = [],
): McpToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }, ...extra],
  structuredContent: value,
  ...(isError ? { isError } : {}),
});

/** `status` "unknown" where the call could not read the run (its records still being written): it did not fail. */
const refused = (runId: string, code: string, message: string, status: 'failed' | 'unknown' = 'failed') =>
  // flowbenchCode as in flows_execute's errors, so a client reads one field for both.
  structured({ runId, status, error: { code, flowbenchCode: code, message, source: FLOWS_RESULT } }, true);

/** What flows_start answers: the run id, at once. */
export function startedResult(flow: Flow, runId: string, unusedVariables: string[]): McpToolResult {
  return structured(
    {
      runId,
      flowName: flow.tool.name,
      status: 'running',
      next: `call ${FLOWS_RESULT} with this runId; each call waits up to ${MAX_WAIT_SECONDS} s`,
      ...(unusedVariables.length > 0 ? { unusedVariables } : {}),
    },
    false,
    [runLink(runId)],
  );
}

/** flows_result: the run's result once it ended, or its progress after a bounded wait. */
export async function runResult(
  services: Services,
  args: Record<string, unknown>,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<McpToolResult> {
  const runId = args.runId;
  const wait = args.waitSeconds ?? DEFAULT_WAIT_SECONDS;
  const unknown = unknownArguments(flowsResultTool, args);
  if (unknown) return refused(String(runId), 'VALIDATION_ERROR', unknown);
  if (typeof runId !== 'string' || runId === '')
    return refused(String(runId), 'VALIDATION_ERROR', 'runId must be a non-empty string');
  if (typeof wait !== 'number' || !(wait >= 0 && wait <= MAX_WAIT_SECONDS)) {
    return refused(runId, 'VALIDATION_ERROR', `waitSeconds must be a number from 0 to ${MAX_WAIT_SECONDS}`);
  }
  let record: RunRecord | undefined;
  try {
    record = readMcpRun(services, runId);
  } catch (error) {
    const busy = toFlowbenchError(error);
    return refused(runId, busy.code, busy.message, 'unknown');
  }
  if (!record) return refused(runId, 'RUN_NOT_FOUND', `no run an MCP client started has the id "${runId}"`);
  // While waiting, a read that finds the run's latest records not written yet keeps the last one read.
  const latest = (): RunRecord | undefined => {
    try {
      return readMcpRun(services, runId);
    } catch {
      return undefined;
    }
  };
  const deadline = now() + wait * 1000;
  while (record.status === 'running' && now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - now()))));
    record = latest() ?? record;
  }
  if (record.status === 'running') return structured(progressOf(record, services, now()));
  const endedAt = Date.parse(record.finishedAt ?? record.startedAt);
  if (now() - endedAt > RESULT_TTL_MS) {
    return refused(
      runId,
      'RESULT_EXPIRED',
      `run ${runId} ended at ${record.finishedAt ?? record.startedAt}; results are kept for 24 hours (the run record stays in Flowbench)`,
    );
  }
  const execution = flowExecution(services.runs.snapshot(record.id), record);
  return structured(execution as unknown as Record<string, unknown>, execution.status !== 'success', [runLink(runId)]);
}

function progressOf(record: RunRecord, services: Services, now: number): Record<string, unknown> {
  // The flow as the run ran it, stored with the run (the draft may have changed since).
  const total = services.runs.snapshot(record.id).nodes.length;
  const ended = record.steps.filter((s) => s.status !== 'running' && s.status !== 'pending');
  const last = ended.at(-1);
  return {
    runId: record.id,
    flowName: record.flowName,
    status: 'running',
    progress: { done: ended.length, total, ...(last ? { lastNode: last.nodeId } : {}) },
    elapsedMs: now - Date.parse(record.startedAt),
    next: `call ${FLOWS_RESULT} again`,
  };
}
