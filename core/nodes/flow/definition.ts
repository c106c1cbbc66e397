import { z } from 'zod';
import { callPorts } from '../shared-config';
import { callFlow } from '../call-flow';
import { defineNode } from '../define-node';
import { NamedValueSchema, namedValuesEditor, namelessProblems, unchosen } from '../shared-arguments';

const FlowCallConfigSchema = z.lazy(() =>
  z.object({
    /** The called flow: its id, name or tool name. */
    flow: z.string().max(300).default(''),
    inputs: z.array(NamedValueSchema).max(200).default([]),
  }),
);

/** Calls another saved flow's latest published version; its result is the output, its run a linked child run. */
export const flowNode = defineNode({
  type: 'flow',
  runsForEach: true,
  version: 1,
  label: 'Flow',
  category: 'logic',
  icon: 'flow',
  description: "Runs another saved flow's published version with inputs; its result is the output.",
  ...callPorts('result'),
  configSchema: FlowCallConfigSchema,
  defaults: () => FlowCallConfigSchema.parse({}),
  editor: [
    { key: 'flow', label: 'Flow', kind: 'text', suggest: 'flows', help: 'its latest published version runs' },
    { key: 'inputs', ...namedValuesEditor('Inputs', 'the called flow’s parameters') },
  ],
  templates: (config) => config.inputs.map((a, i) => ({ field: `inputs.${i}.value`, text: a.value })),
  summary: (config) => (config.flow ? `calls ${config.flow}` : 'no flow chosen'),
  check: (config) => [
    ...unchosen(config.flow, 'MISSING_FLOW', 'choose the flow this node calls', 'config.flow'),
    ...namelessProblems(config.inputs, 'inputs', 'input'),
  ],
  returnsCallee: true,
  calls: (config) =>
    config.flow.trim()
      ? [{ kind: 'flow', ref: config.flow, field: 'config.flow', values: { key: 'inputs', label: 'Inputs' } }]
      : [],
  execute: async (ctx, config) => {
    const inputs = Object.fromEntries(config.inputs.map((i) => [i.name, ctx.resolve(i.value)]));
    ctx.report({ input: inputs });
    const called = await callFlow(ctx, config.flow, inputs, ctx.signal, (runId) => ctx.report({ childRunId: runId }));
    return { kind: 'output', output: called.output };
  },
});
