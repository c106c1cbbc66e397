import { z } from 'zod';
import { defineNode, preview } from '../define-node';

const StopConfigSchema = z.lazy(() =>
  z.object({
    reason: z.string().max(10_000).default('Stopped by the flow'),
  }),
);

/** Ends the run with status `stopped` and a reason (seed 003's StopWorkflowChecker). */
export const stopNode = defineNode({
  type: 'stop',
  version: 1,
  label: 'Stop',
  category: 'logic',
  icon: 'stop',
  description: 'Ends the run with status stopped and a reason.',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [],
  configSchema: StopConfigSchema,
  defaults: () => ({ reason: 'Stopped by the flow' }),
  editor: [{ key: 'reason', label: 'Reason', kind: 'template' }],
  templates: (config) => [{ field: 'reason', text: config.reason }],
  summary: (config) => preview(config.reason),
  execute: (ctx, config) => ({ kind: 'stop', reason: ctx.render(config.reason) }),
});
