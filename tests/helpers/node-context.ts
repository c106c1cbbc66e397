import { NO_MEMORY } from '../../core/model/memory';
import { fetchHttp } from '../../core/engine/fetch-http';
import { quickJsCode } from '../../core/engine/run-code';
import { sleep } from '../../core/engine/retry';
import { NO_HUMAN_INPUT, type HumanInputPort } from '../../core/model/human-input';
import type { AgentResolver } from '../../core/model/agents';
import type { LlmPort } from '../../core/model/llm';
import { NO_AGENTS, NO_SUBFLOWS, NO_TOOLS } from '../../core/model/ports';
import type { SubflowPort } from '../../core/model/subflows';
import type { ToolCallRecord, ToolPort } from '../../core/model/tools';
import { renderTemplate, resolveTemplateValue, type RenderScope } from '../../core/model/render';
import type { NodeContext, StepDetails } from '../../core/nodes/define-node';

/**
 * A NodeContext as the engine builds one, for running a single node in a
 * test: templates render against `inputs` and the upstream `outputs` given.
 */
export function nodeContext(
  options: {
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
    llm?: LlmPort;
    tools?: ToolPort;
    subflows?: SubflowPort;
    agents?: AgentResolver;
    human?: HumanInputPort;
  } = {},
): NodeContext & { reported: StepDetails[]; tokens: string[]; toolCalls: ToolCallRecord[] } {
  const scope: RenderScope = {
    inputs: options.inputs ?? {},
    node: (id) => (options.outputs && id in options.outputs ? { output: options.outputs[id] } : undefined),
  };
  const reported: StepDetails[] = [];
  const signal = new AbortController().signal;
  const tokens: string[] = [];
  const toolCalls: ToolCallRecord[] = [];
  return {
    nodeId: 'under_test',
    signal,
    inputs: scope.inputs,
    wait: (ms) => sleep(ms, signal),
    render: (template) => renderTemplate(template, scope),
    resolve: (template) => resolveTemplateValue(template, scope),
    ran: (nodeId) => scope.node(nodeId) !== undefined,
    llm: options.llm ?? {
      generate: () => Promise.reject(new Error('this node was not expected to call a model')),
      runAgent: () => Promise.reject(new Error('this node was not expected to call a model')),
    },
    tools: options.tools ?? NO_TOOLS,
    subflows: options.subflows ?? NO_SUBFLOWS,
    agents: options.agents ?? NO_AGENTS,
    memory: NO_MEMORY,
    human: options.human ?? NO_HUMAN_INPUT,
    http: fetchHttp,
    code: quickJsCode,
    runId: 'run_under_test',
    callers: ['flow_under_test'],
    streamsTokens: true,
    childSignal: () => {
      const controller = new AbortController();
      return { signal: controller.signal, abort: (reason) => controller.abort(reason), dispose: () => undefined };
    },
    toolCall: (call) => {
      const calls = toolCalls;
      const index = calls.findIndex((c) => c.id === call.id);
      if (index === -1) calls.push(call);
      else calls[index] = call;
    },
    toolCalls,
    emitToken: (text) => tokens.push(text),
    report: (details) => reported.push(details),
    reported,
    tokens,
  };
}
