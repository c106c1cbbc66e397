import type { Ajv } from 'ajv';
import { FlowbenchError } from '../../model/errors';

// Loaded on the first JSON answer: the editor, which never checks answers, does not carry it.
let ajv: Promise<Ajv> | undefined;
/** The one JSON Schema checker (ajv), loaded on first use; test cases' schema expectations use it too. */
export const loadAjv = () =>
  (ajv ??= import('ajv').then(({ Ajv: AjvClass }) => new AjvClass({ allErrors: true, strict: false })));

/** Parses a model's answer as JSON (tolerating a code fence) and checks it against the schema. */
export async function parseJsonAnswer(
  text: string,
  schema: Record<string, unknown> | undefined,
  nodeHint: string,
): Promise<unknown> {
  const unfenced = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  let value: unknown;
  try {
    value = JSON.parse(unfenced) as unknown;
  } catch {
    throw new FlowbenchError(
      'INVALID_MODEL_OUTPUT',
      `${nodeHint}: the model's answer is not valid JSON: ${JSON.stringify(text.slice(0, 200))}`,
      {
        answer: text.slice(0, 2000),
      },
    );
  }
  if (schema) {
    let validate;
    try {
      validate = (await loadAjv()).compile(schema);
    } catch (error) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `${nodeHint}: the node's JSON schema is invalid: ${(error as Error).message}`,
      );
    }
    if (!validate(value)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
      throw new FlowbenchError(
        'INVALID_MODEL_OUTPUT',
        `${nodeHint}: the model's JSON does not match the schema: ${problems.join('; ')}`,
        {
          answer: value,
          problems,
        },
      );
    }
  }
  return value;
}
