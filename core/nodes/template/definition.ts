import { z } from 'zod';
import { defineNode, preview } from '../define-node';

const TemplateConfigSchema = z.lazy(() =>
  z.object({
    template: z.string().max(200_000).default(''),
  }),
);

/** Renders a text template from inputs and upstream outputs; makes no model call. */
export const templateNode = defineNode({
  type: 'template',
  version: 1,
  label: 'Template',
  category: 'text',
  icon: 'text',
  description: 'Renders text with {{inputs.x}} and {{nodes.<id>.output}} references.',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [{ id: 'out', label: 'text', kind: 'data' }],
  configSchema: TemplateConfigSchema,
  defaults: () => ({ template: '' }),
  editor: [{ key: 'template', label: 'Template', kind: 'template' }],
  templates: (config) => [{ field: 'template', text: config.template }],
  summary: (config) => preview(config.template),
  fillEmptyText: (config, reference) => (config.template.trim() === '' ? { template: reference } : undefined),
  execute: (ctx, config) => {
    const text = ctx.render(config.template);
    return { kind: 'output', output: text };
  },
});
