import type { Flow } from './flow';
import type { RunRecord, StepStatus } from './run';
import { dataUrlBytes, dataUrlType, isPictureUrl } from './data-urls';
import { stringifyValue } from './template';
import { cutText } from './cut-text';

/**
 * What the built-in run view (an MCP App every flow tool offers) shows of a
 * run: each node of the flow in order, with how it ended and what it gave,
 * cut short. It travels in the tool result's `_meta`, so the model reads the
 * result as before and only the client's view uses it.
 */
export const RUN_VIEW_META_KEY = 'dev.flowbench/run';
/** The longest output a node shows in the view. */
const MAX_OUTPUT_CHARS = 2_000;

export interface RunViewNode {
  id: string;
  label: string;
  type: string;
  status: StepStatus | 'not run';
  durationMs?: number;
  output?: string;
  error?: string;
  /** Loop passes, when there were more than one. */
  passes?: number;
}

export interface RunViewData {
  runId: string;
  flowName: string;
  status: RunRecord['status'];
  durationMs?: number;
  nodes: RunViewNode[];
}

/** The largest picture a node's output shows whole in the view (a data: URL of it); a larger one is named. */
const MAX_IMAGE_CHARS = 1_000_000;

/** What the view shows of an output: the text cut short, a picture whole (cut, it would be no picture). */
function shown(text: string): string {
  if (isPictureUrl(text)) {
    return text.length <= MAX_IMAGE_CHARS
      ? text
      : `[${dataUrlType(text)} picture, ${Math.round(dataUrlBytes(text) / 1024)} KB: too large to show here]`;
  }
  return text.length > MAX_OUTPUT_CHARS ? `${cutText(text, MAX_OUTPUT_CHARS)}…` : text;
}

export function runViewData(flow: Flow, record: RunRecord): RunViewData {
  // A node's last pass is how it ended.
  const last = new Map<string, RunRecord['steps'][number]>();
  const passes = new Map<string, number>();
  for (const step of record.steps) {
    last.set(step.nodeId, step);
    passes.set(step.nodeId, (passes.get(step.nodeId) ?? 0) + 1);
  }
  return {
    runId: record.id,
    flowName: flow.name,
    status: record.status,
    ...(record.durationMs !== undefined ? { durationMs: record.durationMs } : {}),
    nodes: flow.nodes.map((node) => {
      const step = last.get(node.id);
      const count = passes.get(node.id) ?? 0;
      return {
        id: node.id,
        label: node.label || node.id,
        type: node.type,
        status: step?.status ?? 'not run',
        ...(step?.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
        ...(step?.output !== undefined ? { output: shown(stringifyValue(step.output)) } : {}),
        ...(step?.error ? { error: `${step.error.code}: ${step.error.message}` } : {}),
        ...(count > 1 ? { passes: count } : {}),
      };
    }),
  };
}
