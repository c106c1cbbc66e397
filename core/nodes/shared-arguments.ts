import { z } from 'zod';
import type { NodeConfigProblem } from '../model/node-catalogue';
import { MAX_VALUE_NAME_CHARS } from '../model/limits';
import { FLOWBENCH_SERVER } from '../model/tools';
import { schemaTypes } from '../model/schema-shape';
import type { Callee, PassedValues } from './define-node';

/**
 * Named values a node passes on (a tool's arguments, a flow's inputs), each a
 * template. A name may be empty while the node is set up (a row just added):
 * namelessProblems says so, and runs and publishing refuse it.
 */
export const NamedValueSchema = z.object({
  name: z.string().max(MAX_VALUE_NAME_CHARS),
  value: z.string().max(200_000).default(''),
});
export type NamedValue = z.infer<typeof NamedValueSchema>;

/** An error problem when `text` is empty: a choice the node still needs (its tool, the flow it calls). */
export function unchosen(
  text: string,
  code: NodeConfigProblem['code'],
  message: string,
  field: string,
): NodeConfigProblem[] {
  return text.trim() === '' ? [{ code, severity: 'error', message, field }] : [];
}

/** A NODE_SETUP problem for each item of `key` without a name yet (`argument 2 has no name yet`). */
export function namelessProblems(
  items: readonly { name: string }[],
  key: string,
  what: string,
  nameKey = 'name',
): NodeConfigProblem[] {
  return items.flatMap((item, i) =>
    item.name.trim() === ''
      ? [
          {
            code: 'NODE_SETUP' as const,
            severity: 'error' as const,
            message: `${what} ${i + 1} has no name yet`,
            field: `config.${key}.${i}.${nameKey}`,
          },
        ]
      : [],
  );
}

export const namedValuesEditor = (label: string, help: string) => ({
  label,
  kind: 'list' as const,
  help,
  itemFields: [
    { key: 'name' as const, label: 'Name', kind: 'text' as const },
    { key: 'value' as const, label: 'Value', kind: 'template' as const },
  ],
});

/**
 * The value a template field stands for, typed as the receiving schema
 * expects: a lone reference keeps its value's type; text is read as a number,
 * a boolean or JSON where the schema asks for one and not for text (as n8n's
 * fields do), and empty text is null where the schema takes null and not
 * text (an optional argument left empty). `root` is the schema `$ref`s
 * point into (the tool's input schema).
 */
export function typedValue(resolved: unknown, schema: unknown, root: unknown = schema): unknown {
  if (typeof resolved !== 'string') return resolved;
  const types = new Set(schemaTypes(schema, root));
  // Text is what the schema takes (or it says nothing): the text as typed.
  if (types.size === 0 || types.has('string')) return resolved;
  const text = resolved.trim();
  if (text === '') return types.has('null') ? null : resolved;
  if ((types.has('number') || types.has('integer')) && Number.isFinite(Number(text))) return Number(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('object') || types.has('array') || types.has('null')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return resolved;
    }
  }
  return resolved;
}

/**
 * A tool a node names (nothing when it names none yet): a published flow when
 * the server is "flowbench", else a tool of a connected server (any, when empty).
 */
export function toolCallee(server: string, tool: string, field: string, values?: PassedValues): Callee[] {
  // Names as the run uses them (untrimmed): a check passes only what the run finds.
  if (tool.trim() === '') return [];
  const passed = values ? { values } : {};
  return server === FLOWBENCH_SERVER
    ? [{ kind: 'flow', ref: tool, field, ...passed }]
    : [{ kind: 'tool', server, tool, field, ...passed }];
}
