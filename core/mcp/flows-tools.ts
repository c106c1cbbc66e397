import type { Flow, FlowNode } from '../model/flow';
import { BUILT_IN_TOOL_NAMES } from '../model/ids';
import type { RunRecord } from '../model/run';
import { stringifyValue } from '../model/template';
import { nodeRegistry } from '../nodes/registry';

/** The generic tools of seeds 001/002, next to one tool per flow. */
export const FLOWS_LIST = BUILT_IN_TOOL_NAMES.list;
export const FLOWS_EXECUTE = BUILT_IN_TOOL_NAMES.execute;

export const flowsListTool = {
  name: FLOWS_LIST,
  title: 'List flows',
  description: 'Lists the flows this Flowbench offers, with their parameters. Call flows_execute to run one by name.',
  inputSchema: {
    type: 'object',
    properties: { includeMetadata: { type: 'boolean', description: 'include parameters and dates (default true)' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** What flows_execute and flows_start take: a flow by name, its variables, a version. */
export const FLOW_RUN_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    flowName: { type: 'string', description: 'the flow tool name (from flows_list), its name or id' },
    initialVariables: { type: 'object', description: "values for the flow's parameters", additionalProperties: true },
    ref: {
      type: 'string',
      description: 'a published version to run: its number, or the semver the flow declares (default: the newest)',
    },
  },
  required: ['flowName'],
  additionalProperties: false,
};

export const flowsExecuteTool = {
  name: FLOWS_EXECUTE,
  title: 'Execute a flow',
  description:
    'Runs a flow by name with initial variables and returns every intermediate result, the final result and timings.',
  inputSchema: FLOW_RUN_INPUT_SCHEMA,
};

/**
 * What a built-in tool says of arguments its input schema does not name (it
 * allows no others): a client's `version` or misspelt `initalVariables`
 * would otherwise be ignored and the call run without it. Undefined when
 * every argument is known.
 */
export function unknownArguments(
  tool: { name: string; inputSchema: { properties: Record<string, unknown> } },
  args: Record<string, unknown>,
): string | undefined {
  const known = Object.keys(tool.inputSchema.properties);
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length === 0) return undefined;
  const names = unknown.map((key) => `"${key}"`).join(', ');
  return `${tool.name} takes no argument ${names}; its arguments are ${known.join(', ')}`;
}

/** The error codes of seed 002; Flowbench's own code travels alongside. */
type SeedCode =
  | 'FLOW_NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'TEMPLATE_NOT_FOUND'
  | 'EXECUTION_ERROR'
  | 'CIRCULAR_DEPENDENCY'
  | 'MISSING_VARIABLES';

export function seedCode(code: string): SeedCode {
  if (
    code === 'FLOW_NOT_FOUND' ||
    code === 'VALIDATION_ERROR' ||
    code === 'CIRCULAR_DEPENDENCY' ||
    code === 'MISSING_VARIABLES' ||
    code === 'TEMPLATE_NOT_FOUND'
  )
    return code;
  return 'EXECUTION_ERROR';
}

export interface FlowExecution {
  flowId: string;
  flowName: string;
  /** Seed 001's format: `{flowName}_{timestamp}`. */
  executionId: string;
  /** The stored run (`flowbench runs show <runId>`). */
  runId: string;
  initialVariables: Record<string, unknown>;
  intermediateResults: {
    nodeId: string;
    label: string;
    templateName: string;
    inputVariables: unknown;
    output: string;
    executionTimeMs: number;
    timestamp: string;
  }[];
  finalResult: string | null;
  totalExecutionTimeMs: number;
  status: 'success' | 'partial' | 'failed';
  error?: {
    code: SeedCode;
    flowbenchCode: string;
    message: string;
    source: 'flows_execute';
    failedAt?: { nodeId: string; label: string; templateName: string };
  };
}

/**
 * The name seed 001 gives a node's template: the FlowyPrompt template it
 * came from (`selectedTemplateId`), else its label.
 */
function templateName(node: FlowNode | undefined, fallback: string): string {
  const kept = node?.metadata?.flowyprompt as { node?: { data?: { selectedTemplateId?: unknown } } } | undefined;
  const selected = kept?.node?.data?.selectedTemplateId;
  return typeof selected === 'string' && selected !== '' ? selected : node?.label || fallback;
}

/**
 * A step's resolved input with seed 001's variable names: `inputs.company`
 * is `company`, the output of node `node-2` is `node2_result`.
 */
function seedVariables(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input ?? {};
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      const parameter = /^inputs\.([^.]+)$/.exec(key);
      if (parameter) return [parameter[1], value];
      const output = /^nodes\.([^.]+)\.output$/.exec(key);
      return output ? [`${(output[1] ?? '').replace(/[^A-Za-z0-9]/g, '')}_result`, value] : [key, value];
    }),
  );
}

/** A run in the shape of seed 001's FlowExecution. */
export function flowExecution(flow: Flow, record: RunRecord): FlowExecution {
  const nodes = new Map(flow.nodes.map((n) => [n.id, n]));
  const labels = new Map(flow.nodes.map((n) => [n.id, n.label || n.id]));
  // The entry node only passes the inputs on, the result node only collects: seed 001 lists what the flow computed.
  const passOn = new Set(
    flow.nodes.filter((n) => nodeRegistry.get(n.type)?.isEntry || nodeRegistry.get(n.type)?.isResult).map((n) => n.id),
  );
  const results = record.steps
    .filter((s) => s.status === 'succeeded' && !passOn.has(s.nodeId))
    .map((s) => ({
      nodeId: s.nodeId,
      label: labels.get(s.nodeId) ?? s.nodeId,
      templateName: templateName(nodes.get(s.nodeId), s.nodeId),
      inputVariables: seedVariables(s.input),
      output: stringifyValue(s.output),
      executionTimeMs: s.durationMs ?? 0,
      timestamp: s.finishedAt ?? record.startedAt,
    }));
  const output = record.output;
  const finalResult =
    record.status !== 'succeeded'
      ? null
      : output?.kind === 'return_values'
        ? output.values.map((v) => v.text).join('\n\n')
        : output?.kind === 'structured'
          ? JSON.stringify(output.data)
          : (results.at(-1)?.output ?? null);
  const status = record.status === 'succeeded' ? 'success' : results.length > 0 ? 'partial' : 'failed';
  const error = record.error;
  return {
    flowId: flow.id,
    flowName: flow.tool.name,
    executionId: `${flow.tool.name}_${Date.parse(record.startedAt)}`,
    runId: record.id,
    initialVariables: record.inputs,
    intermediateResults: results,
    finalResult,
    totalExecutionTimeMs: record.durationMs ?? 0,
    status,
    ...(error && record.status !== 'succeeded'
      ? {
          error: {
            code: seedCode(error.code),
            flowbenchCode: error.code,
            message: error.message,
            source: 'flows_execute' as const,
            ...(error.nodeId
              ? {
                  failedAt: {
                    nodeId: error.nodeId,
                    label: labels.get(error.nodeId) ?? error.nodeId,
                    templateName: templateName(nodes.get(error.nodeId), error.nodeId),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}
