import { z } from 'zod';

/** Named values a node passes on (a tool's arguments, a flow's inputs), each a template. */
export const NamedValueSchema = z.object({
  name: z.string().min(1).max(128),
  value: z.string().max(200_000).default(''),
});
export type NamedValue = z.infer<typeof NamedValueSchema>;

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
 * a boolean or JSON where the schema asks for one (as n8n's fields do).
 */
export function typedValue(resolved: unknown, schema: unknown): unknown {
  if (typeof resolved !== 'string') return resolved;
  const type = (schema as { type?: unknown } | undefined)?.type;
  const text = resolved.trim();
  if ((type === 'number' || type === 'integer') && text !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if ((type === 'object' || type === 'array') && text !== '') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return resolved;
    }
  }
  return resolved;
}
