import type { Ajv } from 'ajv';

// Loaded on first use: the editor, which never checks answers or tool arguments, does not carry it.
let ajv: Promise<Ajv> | undefined;
/** The one JSON Schema checker (ajv), loaded on first use: JSON answers, test cases and tool arguments use it. */
export const loadAjv = () =>
  (ajv ??= import('ajv').then(({ Ajv: AjvClass }) => new AjvClass({ allErrors: true, strict: false })));

/**
 * What is wrong with `value` against `schema`, one line per problem; empty
 * when it matches. Throws when the schema itself cannot be compiled.
 */
export async function schemaProblems(schema: Record<string, unknown>, value: unknown): Promise<string[]> {
  const validate = (await loadAjv()).compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
