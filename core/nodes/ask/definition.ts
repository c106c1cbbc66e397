import { z } from 'zod';
import { FlowbenchError } from '../../model/errors';
import { answerSchema, AskFieldSchema, ASK_FIELD_TYPES, checkAnswer } from '../../model/human-input';
import { defineNode, preview } from '../define-node';

/** How long a person has to answer when the node sets no time limit of its own. */
export const ASK_TIMEOUT_MS = 10 * 60_000;

const AskConfigSchema = z.lazy(() =>
  z.object({
    message: z.string().max(10_000).default(''),
    fields: z
      .array(AskFieldSchema)
      .max(20)
      .default([{ name: 'answer', type: 'string', required: true }])
      .refine((fields) => new Set(fields.map((f) => f.name)).size === fields.length, 'two fields share a name'),
  }),
);

/**
 * Pauses the run and asks a person (the MCP client that called the flow,
 * through elicitation or an input-required result; the editor's Run panel;
 * a terminal), then goes on with the answer: an object with one key per
 * field (`{{nodes.<id>.output.answer}}`). A declined question fails the node
 * HUMAN_INPUT_DECLINED; where nobody can be asked it fails
 * HUMAN_INPUT_UNAVAILABLE, naming the node.
 */
export const askNode = defineNode({
  type: 'ask',
  version: 1,
  label: 'Ask a person',
  category: 'io',
  icon: 'ask',
  description: 'Pauses the run and asks a person for input (MCP elicitation, the Run panel, a terminal).',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [{ id: 'out', label: 'answer', kind: 'data' }],
  configSchema: AskConfigSchema,
  defaults: () => AskConfigSchema.parse({ message: 'Please confirm' }),
  defaultTimeoutMs: ASK_TIMEOUT_MS,
  asksPeople: true,
  editor: [
    { key: 'message', label: 'Question', kind: 'template' },
    {
      key: 'fields',
      label: 'Answer fields',
      kind: 'list',
      help: 'the answer is an object with one key per field; enum fields offer their options',
      itemFields: [
        { key: 'name', label: 'Name', kind: 'text', initial: 'answer', unique: true },
        { key: 'type', label: 'Type', kind: 'select', options: ASK_FIELD_TYPES },
        { key: 'title', label: 'Label', kind: 'text' },
        { key: 'required', label: 'Required', kind: 'boolean', initial: true },
        { key: 'options', label: 'Options', kind: 'values', shownWhen: { key: 'type', is: ['enum'] } },
      ],
    },
  ],
  templates: (config) => [{ field: 'message', text: config.message }],
  summary: (config) => preview(config.message),
  outputSchema: (config) => answerSchema(config.fields),
  check: (config) => [
    ...(config.message.trim() === ''
      ? [
          {
            code: 'EMPTY_QUESTION' as const,
            severity: 'warning' as const,
            message: 'asks nothing: write the question',
            field: 'config.message',
          },
        ]
      : []),
    ...config.fields.flatMap((field, i) =>
      field.type === 'enum' && (field.options ?? []).length === 0
        ? [
            {
              code: 'NODE_SETUP' as const,
              severity: 'error' as const,
              message: `field "${field.name}" is an enum with no options`,
              field: `config.fields.${i}.options`,
            },
          ]
        : [],
    ),
  ],
  execute: async (ctx, config) => {
    const request = {
      runId: ctx.runId,
      nodeId: ctx.nodeId,
      message: ctx.render(config.message),
      fields: config.fields,
    };
    ctx.report({ input: { message: request.message, fields: config.fields } });
    const answer = await ctx.human.ask(request, ctx.signal);
    if (answer.action !== 'accept') {
      throw new FlowbenchError(
        'HUMAN_INPUT_DECLINED',
        `node "${ctx.nodeId}": the person ${answer.action === 'decline' ? 'declined' : 'dismissed'} the question`,
        { nodeId: ctx.nodeId, action: answer.action },
      );
    }
    return { kind: 'output', output: checkAnswer(request, answer.content) };
  },
});
