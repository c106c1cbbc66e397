import { z } from 'zod';
import { FlowbenchError } from '../../model/errors';
import { parseTemplate } from '../../model/template';
import { defineNode, preview } from '../define-node';

const ReturnValueSchema = z.lazy(() =>
  z.object({
    id: z.string().min(1).max(128),
    /** Template rendered into one MCP `content[]` text item. */
    text: z.string().max(200_000),
    /**
     * The text goes out as written, `{{…}}` included (seed 000's return values
     * are plain text; a file's braces are not Flowbench references).
     */
    literal: z.boolean().optional(),
  }),
);

export const OUTPUT_FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'any'] as const;

const OutputFieldSchema = z.lazy(() =>
  z.object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a field name is a letter or _ then letters, digits or _'),
    /** A template; when it is one reference alone the referenced JSON value is kept as is. */
    value: z.string().max(200_000),
    type: z.enum(OUTPUT_FIELD_TYPES).default('any'),
    description: z.string().max(2000).default(''),
  }),
);

const SummaryFieldSchema = z.lazy(() =>
  z.object({
    /** How the summary names the value (seed 004 keeps its path, `steps.x.output.y`). */
    label: z.string().min(1).max(200),
    /** A template; a lone reference keeps the referenced JSON value. */
    value: z.string().max(10_000),
  }),
);

/**
 * A view: MCP clients that support MCP Apps show the structured result as a
 * widget (a `ui://` resource Flowbench builds) instead of reading it as text.
 */
const ViewSchema = z.lazy(() =>
  z.object({
    title: z.string().min(1, 'a view needs a title').max(200),
    /** Sample data for previews; also the result when no field is mapped (seed 000's view flows return it). */
    mockData: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type OutputView = z.infer<typeof ViewSchema>;

const OutputConfigSchema = z.lazy(() =>
  z.object({
    /**
     * `return_values`: ordered texts that become MCP `content[]`;
     * `structured`: named fields that become `structuredContent` with an `outputSchema`.
     */
    mode: z.enum(['return_values', 'structured']).default('return_values'),
    returnValues: z.array(ReturnValueSchema).default([]),
    fields: z.array(OutputFieldSchema).default([]),
    /** Values a run's summary shows beside its status (seed 004's summaryFields); not sent to MCP clients. */
    summaryFields: z.array(SummaryFieldSchema).max(50).optional(),
    /** Shows the structured result as a view (an MCP App); structured mode only. */
    view: ViewSchema.optional(),
  }),
);

/** The flow's result. */
export const outputNode = defineNode({
  type: 'output',
  version: 1,
  label: 'Output',
  category: 'io',
  icon: 'result',
  description: 'The flow result: ordered return values, or structured fields.',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [],
  configSchema: OutputConfigSchema,
  defaults: () => OutputConfigSchema.parse({ returnValues: [{ id: 'result', text: '' }] }),
  editor: [
    {
      key: 'mode',
      label: 'Result',
      kind: 'select',
      options: ['return_values', 'structured'],
      optionLabels: { return_values: 'Return values (text content)', structured: 'Structured fields (JSON)' },
    },
    {
      key: 'returnValues',
      label: 'Return values',
      kind: 'list',
      // Each mode's own fields only; the other mode's stay stored, there again when it is chosen back.
      shownWhen: { key: 'mode', is: ['return_values'] },
      itemFields: [
        { key: 'text', label: 'Text', kind: 'template' },
        { key: 'literal', label: 'Literal text', kind: 'boolean', help: '{{…}} is sent as written' },
      ],
    },
    {
      key: 'fields',
      label: 'Fields',
      kind: 'list',
      shownWhen: { key: 'mode', is: ['structured'] },
      itemFields: [
        { key: 'name', label: 'Name', kind: 'text', initial: 'field', unique: true },
        { key: 'value', label: 'Value', kind: 'template' },
        { key: 'type', label: 'Type', kind: 'select', options: OUTPUT_FIELD_TYPES },
        { key: 'description', label: 'Description', kind: 'text' },
      ],
    },
    {
      key: 'view',
      label: 'View (MCP App)',
      kind: 'json',
      // With return values only while one is set: there it is a problem (see check) to see and clear.
      shownWhen: { key: 'mode', is: ['structured'], orWhenSet: true },
      help: 'structured fields only: {"title": "…", "mockData": {…}}; clients that support MCP Apps show the result in it',
    },
    {
      key: 'summaryFields',
      label: 'Summary fields',
      kind: 'list',
      help: "shown with the run's status in lists and summaries; not sent to MCP clients",
      itemFields: [
        { key: 'label', label: 'Label', kind: 'text', initial: 'summary' },
        { key: 'value', label: 'Value', kind: 'template' },
      ],
    },
  ],
  templates: (config) => [
    ...(config.mode === 'structured'
      ? config.fields.map((f, i) => ({ field: `fields.${i}.value`, text: f.value }))
      : config.returnValues.flatMap((r, i) => (r.literal ? [] : [{ field: `returnValues.${i}.text`, text: r.text }]))),
    ...(config.summaryFields ?? []).map((f, i) => ({ field: `summaryFields.${i}.value`, text: f.value })),
  ],
  // Said when there is nothing to show yet, as other cards say "no prompt yet": an empty line reads as a fault.
  summary: (config) =>
    config.mode === 'structured'
      ? config.fields.length > 0
        ? `{ ${config.fields.map((f) => f.name).join(', ')} }`
        : 'no fields yet'
      : preview(config.returnValues.map((r) => r.text).join(' | ')) || 'no return value yet',
  publishWarnings: (config) =>
    config.mode === 'structured'
      ? config.fields.flatMap((f) => (f.value.trim() === '' ? [`field "${f.name}" is empty`] : []))
      : config.returnValues.flatMap((r, i) =>
          r.text.trim() === '' ? [`return value ${i + 1} is empty: clients get an empty text`] : [],
        ),
  fillEmptyText: (config, reference) => {
    const list = config.mode === 'structured' ? config.fields : config.returnValues;
    const empty = list.findIndex((item) => ('value' in item ? item.value : item.text).trim() === '');
    if (empty === -1) return undefined;
    return config.mode === 'structured'
      ? { ...config, fields: config.fields.map((f, i) => (i === empty ? { ...f, value: reference } : f)) }
      : { ...config, returnValues: config.returnValues.map((r, i) => (i === empty ? { ...r, text: reference } : r)) };
  },
  check: (config) =>
    config.view && config.mode !== 'structured'
      ? [
          {
            code: 'NODE_SETUP' as const,
            severity: 'error' as const,
            message:
              'a view shows structured fields; return values are text, and seed 000 keeps views and return values apart: choose structured fields, or remove the view',
            field: 'config.view',
          },
        ]
      : [],
  isResult: true,
  resultFields: (config) => (config.mode === 'structured' ? config.fields : undefined),
  resultView: (config) => (config.mode === 'structured' ? config.view : undefined),
  hasRunSettings: false,
  execute: (ctx, config) => {
    const summary = config.summaryFields?.length
      ? { summary: Object.fromEntries(config.summaryFields.map((f) => [f.label, ctx.resolve(f.value) ?? null])) }
      : {};
    if (config.mode === 'return_values') {
      // A value fed only by nodes that did not run (a branch not taken) is left out, not sent empty.
      const values = config.returnValues
        .filter((r) => r.literal || !onlySkippedNodes(r.text, ctx))
        .map((r) => ({ id: r.id, text: r.literal ? r.text : ctx.render(r.text) }));
      return { kind: 'output', output: { kind: 'return_values', values, ...summary } };
    }
    const failed = config.fields.flatMap((f) => {
      const reason = unmappable(f.value, ctx);
      return reason ? [`${f.name} (${f.value.trim()}): ${reason}`] : [];
    });
    if (failed.length > 0) {
      // A path into an answer that is not JSON would be null: the run says which mapping failed instead.
      throw new FlowbenchError('OUTPUT_MAPPING_FAILED', `the output could not be mapped: ${failed.join('; ')}`, {
        fields: failed,
      });
    }
    // A view with no field mapped shows its sample data, as seed 000's view flows return theirs.
    const data =
      config.fields.length === 0 && config.view?.mockData
        ? config.view.mockData
        : Object.fromEntries(config.fields.map((f) => [f.name, coerceField(ctx.resolve(f.value), f.type)]));
    return { kind: 'output', output: { kind: 'structured', data, ...summary } };
  },
});

/** Numbers and booleans rendered as text become typed again for structured output. */
function coerceField(value: unknown, type: (typeof OUTPUT_FIELD_TYPES)[number]): unknown {
  if (typeof value !== 'string') return value;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if ((type === 'object' || type === 'array') && /^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** True when the template references nodes and none of them ran (skipped, or on a branch not taken). */
function onlySkippedNodes(template: string, ctx: { ran(nodeId: string): boolean }): boolean {
  const nodeIds = parseTemplate(template).flatMap((s) =>
    s.kind === 'ref' && s.ref.scope === 'nodes' ? [s.ref.nodeId] : [],
  );
  return nodeIds.length > 0 && nodeIds.every((id) => !ctx.ran(id));
}

/**
 * Why a field cannot be mapped: it reads a path inside a node's output, the
 * node ran, and its answer is text that is not JSON. (A node that did not
 * run, or JSON without the path, leave the field null, as the schema allows.)
 */
function unmappable(
  template: string,
  ctx: { ran(nodeId: string): boolean; resolve(t: string): unknown },
): string | undefined {
  const segments = parseTemplate(template.trim());
  const only = segments.length === 1 ? segments[0] : undefined;
  if (only?.kind !== 'ref' || only.ref.scope !== 'nodes' || only.ref.path.length === 0) return undefined;
  const { nodeId, field } = only.ref;
  if (!ctx.ran(nodeId)) return undefined;
  const whole = ctx.resolve(`{{nodes.${nodeId}.${field}}}`);
  if (typeof whole !== 'string') return undefined;
  const text = whole.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      // Not JSON after all: said below.
    }
  }
  return `"${nodeId}" answered text, not JSON (${JSON.stringify(text.slice(0, 60))}), so it has no ${only.ref.path.join('.')}`;
}
