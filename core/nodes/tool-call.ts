import type { AbortSignalLike } from '../model/abort';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import { promptImages, type PromptImage } from '../model/prompt-images';
import { FLOWBENCH_SERVER, modelText, toolOutput, type ToolCallRecord, type ToolInfo } from '../model/tools';
import { callFlow } from './call-flow';
import type { NodeContext } from './define-node';
import { isoTime } from '../model/iso-time';

/**
 * The tool a node calls, described: a published flow on the "flowbench"
 * server, else a connected server's tool (any server's when `server` is empty).
 */
export function findCallee(ctx: NodeContext, server: string, tool: string, signal: AbortSignalLike): Promise<ToolInfo> {
  return server === FLOWBENCH_SERVER
    ? Promise.resolve(ctx.subflows.describe(tool))
    : ctx.tools.findTool(server, tool, signal);
}

export interface ToolCallOptions {
  /** The call's id in the step's tool calls. */
  id: string;
  signal: AbortSignalLike;
  /** Overrides the server's tool time limit (a published flow has its own). */
  timeoutMs?: number | undefined;
  /** Gets a published flow's child run id as soon as it starts. */
  onChildRun?: (runId: string) => void;
}

/**
 * What a call gave: the value a flow sees, and what a model reads: the text,
 * `[image 1]`… standing where each picture was, and those pictures.
 */
export interface ToolCallOutcome {
  output: unknown;
  text: string;
  images: PromptImage[];
}

/**
 * Calls a tool (or a published flow, as a child run) and records the call on
 * the step as it starts and as it ends, with its result or its error. An
 * error the tool answers with is TOOL_ERROR; every failure is thrown.
 */
export async function recordedToolCall(
  ctx: NodeContext,
  info: ToolInfo,
  args: Record<string, unknown>,
  options: ToolCallOptions,
): Promise<ToolCallOutcome> {
  const started = Date.now();
  const record: ToolCallRecord = {
    id: options.id,
    server: info.server,
    tool: info.name,
    arguments: args,
    startedAt: isoTime(started),
  };
  ctx.toolCall(record);
  try {
    if (info.server === FLOWBENCH_SERVER) {
      const called = await callFlow(ctx, info.name, args, options.signal, options.onChildRun);
      ctx.toolCall({ ...record, durationMs: Date.now() - started, runId: called.runId, result: called.output });
      // A flow whose answer is a picture's data: URL gives the model the picture, as a tool's image does.
      const text = typeof called.output === 'string' ? called.output : JSON.stringify(called.output);
      return { output: called.output, ...promptImages(text) };
    }
    const result = await ctx.tools.callTool(info.server, info.name, args, {
      signal: options.signal,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    if (result.isError) {
      const said = result.text.trim() ? `: ${result.text}` : ', and said nothing about it';
      throw new FlowbenchError('TOOL_ERROR', `${info.server}/${info.name} answered with an error${said}`, {
        server: info.server,
        tool: info.name,
      });
    }
    const output = toolOutput(result);
    ctx.toolCall({ ...record, durationMs: Date.now() - started, result: output });
    return { output, ...promptImages(modelText(result)) };
  } catch (thrown) {
    const error = toFlowbenchError(thrown);
    ctx.toolCall({ ...record, durationMs: Date.now() - started, error: { code: error.code, message: error.message } });
    throw error;
  }
}
