import type { ToolCallRecord } from './tools';

/**
 * Runs as every part of Flowbench sees them: the engine emits these events,
 * the store records them, the renderer and MCP clients show them.
 */

/** How a run stands or ended: the one list the store, the API, the CLI and the editor's filters use. */
export const RUN_STATUSES = [
  'running',
  'succeeded',
  'partial',
  'failed',
  'stopped',
  'cancelled',
  'interrupted',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';
/**
 * Who started a run; `test` is a test case run by "Run all" or `flowbench
 * test`, `flow` a flow node of another run (its parent run links to it).
 */
export const RUN_TRIGGERS = ['editor', 'cli', 'mcp', 'test', 'flow'] as const;

/**
 * A run id's short form, for people: its last 8 characters, random in every
 * run id. The first ones of a run id are its time (engine/run-id.ts), the same
 * for runs a minute apart. `flowbench runs show` accepts this form.
 */
export const shortRunId = (id: string): string => id.slice(-8);
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Which model answered, so the cost can be told (steps only). */
  provider?: string;
  model?: string;
  /** In US dollars, from the price table when the model has a price (see model/pricing.ts). */
  cost?: number;
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** The tools an assistant turn called (agents). */
  toolCalls?: { id: string; name: string; arguments: unknown }[];
  /** Which call a `tool` message answers. */
  toolCallId?: string;
}

export interface StepError {
  code: string;
  message: string;
}

/** What a finished run returns: ordered texts, or structured fields. */
export type RunOutput = (
  | { kind: 'return_values'; values: { id: string; text: string }[] }
  | { kind: 'structured'; data: Record<string, unknown> }
) & {
  /** The values the output's summary fields name (seed 004's summaryFields), for lists and summaries. */
  summary?: Record<string, unknown>;
};

/**
 * A run started from a node ("run from here"): the nodes outside `fromNodeId`
 * and what depends on it did not run; `nodeIds` took their stored outputs
 * from run `runId` instead.
 */
export interface RunReuse {
  fromNodeId: string;
  runId: string;
  nodeIds: string[];
}

/** Details a node adds to its step besides input and output: tool calls, the run it started, its model's warnings. */
export interface StepLinks {
  /** Every tool call of the step, in the order they started (agent and mcp_tool nodes). */
  toolCalls?: ToolCallRecord[];
  /** The run a flow node started for the flow it calls. */
  childRunId?: string;
  /**
   * What the model's provider said it did not honour (a setting the model does not take,
   * a model whose limits are not known): the AI SDK's warnings, in its words.
   */
  warnings?: string[];
}

/** Events of one run, in the order they happen. */
export type RunEvent =
  | {
      type: 'run.started';
      runId: string;
      flowId: string;
      at: number;
      inputs: Record<string, unknown>;
      reuse?: RunReuse;
      /** A run to this node: only it and the nodes it needs ran. */
      toNodeId?: string;
    }
  | { type: 'node.started'; runId: string; nodeId: string; attempt: number; at: number; iteration?: number }
  | { type: 'node.token'; runId: string; nodeId: string; text: string }
  /** A tool call started (no durationMs yet) or ended; the canvas shows it while the node runs. */
  | { type: 'node.tool'; runId: string; nodeId: string; call: ToolCallRecord; iteration?: number }
  | ({
      type: 'node.finished';
      runId: string;
      nodeId: string;
      at: number;
      /** The pass of a loop (absent: the first, or no loop). */
      iteration?: number;
      durationMs: number;
      attempts: number;
      input?: unknown;
      output: unknown;
      usage?: TokenUsage;
      messages?: LlmMessage[];
      /** The output was taken from this earlier run, not computed (see RunReuse). */
      reusedFrom?: string;
      /** The node is deactivated: it handed on what came into it instead of running. */
      passedOver?: true;
      /** The output is the node's pinned one (FlowNode.pin): it did not run. */
      pinned?: true;
      /** Why each earlier attempt failed, oldest first (retries). */
      retries?: StepError[];
    } & StepLinks)
  | ({
      type: 'node.failed';
      runId: string;
      nodeId: string;
      at: number;
      iteration?: number;
      attempt: number;
      error: StepError;
      /** True when another attempt follows after a backoff. */
      willRetry: boolean;
      /** True when the node's error port continues the run. */
      isHandled: boolean;
      input?: unknown;
      messages?: LlmMessage[];
      /** On the last failure: why each earlier attempt failed, oldest first. */
      retries?: StepError[];
    } & StepLinks)
  | { type: 'node.skipped'; runId: string; nodeId: string; at: number; iteration?: number }
  | { type: 'node.cancelled'; runId: string; nodeId: string; at: number; iteration?: number }
  | {
      type: 'run.finished';
      runId: string;
      at: number;
      status: RunStatus;
      durationMs: number;
      output?: RunOutput;
      error?: StepError & { nodeId?: string };
    };

export type RunEventListener = (event: RunEvent) => void;

export interface StepRecord extends StepLinks {
  nodeId: string;
  /** The pass of a loop this record is of; absent for the first (and outside loops). */
  iteration?: number;
  status: StepStatus;
  attempts: number;
  input?: unknown;
  output?: unknown;
  error?: StepError;
  usage?: TokenUsage;
  messages?: LlmMessage[];
  /** Why each attempt before the last failed, oldest first. */
  retries?: StepError[];
  /** The node was deactivated: it did not run, and handed on what came into it. */
  passedOver?: true;
  /** The node's pinned output stood in for it: it did not run. */
  pinned?: true;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
}

/** A stored run, as `runs show --json` prints it. */
export interface RunRecord {
  id: string;
  flowId: string;
  flowName: string;
  flowVersion?: number;
  trigger: RunTrigger;
  client?: string;
  status: RunStatus;
  inputs: Record<string, unknown>;
  output?: RunOutput;
  error?: StepError & { nodeId?: string };
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  /** Set when the run started from a node, reusing an earlier run's outputs. */
  reuse?: RunReuse;
  /** Set when the run went to a node (Run to here): only it and the nodes it needs ran, the rest were skipped. */
  toNodeId?: string;
  /** The run whose flow node started this one (trigger `flow`). */
  parentRunId?: string;
  /** The W3C `traceparent` the MCP client sent with the call. */
  traceparent?: string;
  /** The conversation it ran in: what its per-conversation memory channels read and wrote. */
  conversation?: string;
  /** Tokens and cost summed over the steps. */
  usage?: TokenUsage;
  steps: StepRecord[];
}

/** A run in lists: the record without inputs, output and steps. */
export type RunSummary = Omit<RunRecord, 'steps' | 'inputs' | 'output'>;
