import { memoryMessages, writeMemory } from '../node-memory';
import { FlowbenchError, toFlowbenchError } from '../../model/errors';
import type { AgentTool, InvalidToolCall } from '../../model/llm';
import { toolLabel, type ToolInfo } from '../../model/tools';
import { findCallee, recordedToolCall } from '../tool-call';
import { modelCallDetails, samplingOf } from '../shared-config';
import type { NodeContext, NodeOutcome } from '../define-node';
import { effectiveSettings, type AgentConfig } from './definition';
import { isoTime } from '../../model/iso-time';

/** Names the model sees: a tool's own name, prefixed with its server where two servers offer the same name. */
function modelNames(tools: readonly ToolInfo[]): string[] {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  return tools.map((t) => clean((counts.get(t.name) ?? 0) > 1 ? `${t.server}__${t.name}` : t.name));
}

function invalidCallError(call: InvalidToolCall, offered: readonly string[]): FlowbenchError {
  return call.reason === 'unknown_tool'
    ? new FlowbenchError(
        'TOOL_NOT_FOUND',
        `the model called a tool "${call.name}" the agent does not have (its tools: ${offered.join(', ') || 'none'})`,
        { tool: call.name },
      )
    : new FlowbenchError(
        'TOOL_ARGUMENTS_INVALID',
        `the model's arguments for ${call.name} are not valid: ${call.message}`,
        {
          tool: call.name,
        },
      );
}

/**
 * Runs an agent node: resolves its library version and tools, then the
 * model's tool-use loop. Every tool call is recorded on the step and shown
 * live; with `toolErrors: fail` the first failed call ends the step with its
 * error, with `tell_model` the model gets the error and goes on.
 */
export async function runAgent(ctx: NodeContext, config: AgentConfig): Promise<NodeOutcome> {
  const version = config.agentVersionId !== undefined ? ctx.agents.version(config.agentVersionId) : undefined;
  const settings = effectiveSettings(config, version?.settings);
  const system = ctx.render(settings.system);
  const prompt = ctx.render(config.prompt);
  const memory = memoryMessages(ctx, config.memoryReads);
  ctx.report({
    input: {
      system,
      prompt,
      ...(memory.length > 0 ? { memory } : {}),
      ...(version ? { agent: `${version.agentName} v${version.version}` } : {}),
      tools: settings.tools.map(toolLabel),
    },
  });
  const infos = await Promise.all(settings.tools.map((ref) => findCallee(ctx, ref.server, ref.tool, ctx.signal)));
  const names = modelNames(infos);

  // The loop's own signal: the step's (cancel, time limit), or the first failed call under `fail`.
  const controller = ctx.childSignal();
  let fatal: FlowbenchError | undefined;
  const failed = (error: FlowbenchError) => {
    if (settings.toolErrors !== 'fail' || fatal) return;
    fatal = error;
    controller.abort(error);
  };

  const tools: AgentTool[] = infos.map((info, index) => ({
    name: names[index] as string,
    ...(info.description ? { description: info.description } : {}),
    inputSchema: info.inputSchema,
    execute: async (args, signal, callId) => {
      try {
        const called = await recordedToolCall(ctx, info, args, {
          id: callId,
          signal,
          timeoutMs: settings.toolTimeoutMs,
        });
        return { text: called.text, images: called.images };
      } catch (thrown) {
        const error = toFlowbenchError(thrown);
        failed(error);
        throw error;
      }
    },
  }));

  try {
    const response = await ctx.llm.runAgent({
      provider: settings.provider,
      model: settings.model,
      system,
      prompt,
      ...(memory.length > 0 ? { context: memory } : {}),
      ...samplingOf(settings),
      tools,
      maxSteps: settings.maxSteps,
      signal: controller.signal,
      ...(ctx.streamsTokens ? { onToken: (text: string) => ctx.emitToken(text) } : {}),
      onInvalidCall: (call) => {
        const error = invalidCallError(call, names);
        ctx.toolCall({
          id: call.id,
          server: '',
          tool: call.name,
          arguments: call.arguments,
          startedAt: isoTime(Date.now()),
          durationMs: 0,
          error: { code: error.code, message: error.message },
        });
        failed(error);
      },
    });
    ctx.report(modelCallDetails(response));
    if (response.hitStepLimit) {
      throw new FlowbenchError(
        'STEP_LIMIT',
        `the agent was still calling tools after ${settings.maxSteps} step${settings.maxSteps === 1 ? '' : 's'} (its step limit) and gave no answer`,
        { maxSteps: settings.maxSteps },
      );
    }
    writeMemory(ctx, config.memoryWrites, response.text);
    return { kind: 'output', output: response.text };
  } catch (thrown) {
    throw fatal ?? thrown;
  } finally {
    controller.dispose();
  }
}
