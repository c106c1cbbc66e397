import { z } from 'zod';
import { MAX_WAIT_MS, WAIT_UNITS, waitLength, waitMs } from '../../model/wait';
import { defineNode } from '../define-node';

const WaitConfigSchema = z.lazy(() =>
  z
    .object({
      amount: z.number().min(0, 'a wait cannot be negative').default(5),
      unit: z.enum(WAIT_UNITS).default('seconds'),
      /** What the node gives once the wait is over; a lone reference keeps the referenced value. */
      value: z.string().max(200_000).default(''),
    })
    .refine((config) => waitMs(config) <= MAX_WAIT_MS, {
      message: 'a wait takes at most 24 hours',
      path: ['amount'],
    }),
);

/**
 * Waits a set time, then passes a value on: the pause between polls of a job
 * still running, or before a rate-limited API is called again (n8n's Wait,
 * Rivet's Delay). Cancelling the run ends the wait at once.
 */
export const waitNode = defineNode({
  type: 'wait',
  version: 1,
  label: 'Wait',
  category: 'logic',
  icon: 'wait',
  description: 'Waits a set time, then passes a value on (between polls, before a rate-limited call).',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [{ id: 'out', label: 'value', kind: 'data' }],
  configSchema: WaitConfigSchema,
  defaults: () => WaitConfigSchema.parse({}),
  // Its length is its own: neither retries nor a time limit have a use, and the run's usual limit would cut a long wait.
  hasRunSettings: false,
  defaultTimeoutMs: MAX_WAIT_MS + 60_000,
  editor: [
    { key: 'amount', label: 'Wait for', kind: 'number', min: 0, step: 1 },
    { key: 'unit', label: 'Unit', kind: 'select', options: WAIT_UNITS },
    {
      key: 'value',
      label: 'Passes on',
      kind: 'template',
      help: 'what the node gives after the wait; connecting a node fills in its output',
    },
  ],
  templates: (config) => [{ field: 'value', text: config.value }],
  summary: (config) => `waits ${waitLength(config.amount, config.unit)}`,
  fillEmptyText: (config, reference) => (config.value.trim() === '' ? { ...config, value: reference } : undefined),
  leastDurationMs: waitMs,
  execute: async (ctx, config) => {
    await ctx.wait(waitMs(config));
    return { kind: 'output', output: ctx.resolve(config.value) };
  },
});
