import { z } from 'zod';
import { FlowbenchError } from '../../model/errors';
import { defineNode, preview } from '../define-node';

const missingTemplate = (config: { template: string; savedTemplate?: string | undefined }) =>
  config.template.trim() === '' && Boolean(config.savedTemplate);

const TemplateConfigSchema = z.lazy(() =>
  z.object({
    template: z.string().max(200_000).default(''),
    /**
     * The saved template a FlowyPrompt node ran (`selectedTemplateId`) when the file carried no text
     * for it: Flowbench has no template library, so the node fails TEMPLATE_NOT_FOUND, as seed 001 does.
     */
    savedTemplate: z.string().max(200).optional(),
  }),
);

/** Renders a text template from inputs and upstream outputs; makes no model call. */
export const templateNode = defineNode({
  type: 'template',
  runsForEach: true,
  version: 1,
  label: 'Template',
  category: 'text',
  icon: 'text',
  description: 'Renders text with {{inputs.x}} and {{nodes.<id>.output}} references.',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [{ id: 'out', label: 'text', kind: 'data' }],
  configSchema: TemplateConfigSchema,
  defaults: () => TemplateConfigSchema.parse({}),
  editor: [{ key: 'template', label: 'Template', kind: 'template' }],
  templates: (config) => [{ field: 'template', text: config.template }],
  summary: (config) => preview(config.template),
  fillEmptyText: (config, reference) => (config.template.trim() === '' ? { template: reference } : undefined),
  check: (config) =>
    missingTemplate(config)
      ? [
          {
            code: 'TEMPLATE_NOT_FOUND',
            severity: 'warning',
            message: `has no text and runs the saved template "${config.savedTemplate}", which Flowbench does not have: runs fail TEMPLATE_NOT_FOUND until you write its text`,
            field: 'config.template',
          },
        ]
      : [],
  execute: (ctx, config) => {
    if (missingTemplate(config)) {
      throw new FlowbenchError('TEMPLATE_NOT_FOUND', `Template not found: ${config.savedTemplate}`, {
        templateName: config.savedTemplate,
      });
    }
    const text = ctx.render(config.template);
    return { kind: 'output', output: text };
  },
});
