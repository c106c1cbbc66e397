import { FlowbenchError } from '../../model/errors';
import { schemaProblems } from '../../model/json-schema';
import type { LlmResponse } from '../../model/llm';

/** Why JSON that does not parse may be cut short: said before the answer. */
const STOPPED: Record<string, string | undefined> = {
  length: ' (it stopped at the token limit before the JSON ended: raise Max tokens, or ask for less)',
  'content-filter': " (the provider's content filter stopped it)",
};

/** Parses a model's answer as JSON (tolerating a code fence) and checks it against the schema. */
export async function parseJsonAnswer(
  text: string,
  schema: Record<string, unknown> | undefined,
  nodeHint: string,
  stopped?: LlmResponse['stopped'],
): Promise<unknown> {
  const unfenced = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  let value: unknown;
  try {
    value = JSON.parse(unfenced) as unknown;
  } catch {
    throw new FlowbenchError(
      'INVALID_MODEL_OUTPUT',
      `${nodeHint}: the model's answer is not valid JSON${STOPPED[stopped ?? ''] ?? ''}: ${JSON.stringify(text.slice(0, 200))}`,
      {
        answer: text.slice(0, 2000),
      },
    );
  }
  if (schema) {
    let problems: string[];
    try {
      problems = await schemaProblems(schema, value);
    } catch (error) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `${nodeHint}: the node's JSON schema is invalid: ${(error as Error).message}`,
      );
    }
    if (problems.length > 0) {
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
