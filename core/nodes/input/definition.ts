import { z } from 'zod';
import { defineNode } from '../define-node';

/** The flow's entry: exposes the flow's parameters (its trigger data) downstream. */
export const inputNode = defineNode({
  type: 'input',
  version: 1,
  label: 'Input',
  category: 'io',
  icon: 'enter',
  description: 'Starts the flow with its parameters; reference them as {{inputs.<name>}}.',
  inputs: [],
  outputs: [{ id: 'out', label: 'inputs', kind: 'data' }],
  configSchema: z.lazy(() => z.object({})),
  defaults: () => ({}),
  editor: [],
  templates: () => [],
  summary: () => 'flow parameters',
  isEntry: true,
  showsParameters: true,
  hasRunSettings: false,
  execute: (ctx) => ({ kind: 'output', output: ctx.inputs }),
});
