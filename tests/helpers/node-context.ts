import type { LlmPort } from '../../core/model/llm';
import { renderTemplate, resolveTemplateValue, type RenderScope } from '../../core/model/render';
import type { NodeContext, StepDetails } from '../../core/nodes/define-node';

/**
 * A NodeContext as the engine builds one, for running a single node in a
 * test: templates render against `inputs` and the upstream `outputs` given.
 */
export function nodeContext(
  options: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown>; llm?: LlmPort } = {},
): NodeContext & { reported: StepDetails[]; tokens: string[] } {
  const scope: RenderScope = {
    inputs: options.inputs ?? {},
    node: (id) => (options.outputs && id in options.outputs ? { output: options.outputs[id] } : undefined),
  };
  const reported: StepDetails[] = [];
  const tokens: string[] = [];
  return {
    nodeId: 'under_test',
    signal: new AbortController().signal,
    inputs: scope.inputs,
    render: (template) => renderTemplate(template, scope),
    resolve: (template) => resolveTemplateValue(template, scope),
    llm: options.llm ?? {
      generate: () => Promise.reject(new Error('this node was not expected to call a model')),
    },
    emitToken: (text) => tokens.push(text),
    report: (details) => reported.push(details),
    reported,
    tokens,
  };
}
