import { z } from 'zod';
import type { AbortSignalLike } from './abort';
import { FlowbenchError } from './errors';
import { PARAMETER_NAME_PATTERN } from './ids';

/** The answer types MCP elicitation can ask for (its restricted, flat JSON Schema). */
export const ASK_FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'enum'] as const;

/** One field of an ask node's question. */
export const AskFieldSchema = z.object({
  name: z.string().regex(PARAMETER_NAME_PATTERN, 'a field name is a letter or _ then letters, digits or _'),
  type: z.enum(ASK_FIELD_TYPES).default('string'),
  title: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  required: z.boolean().default(true),
  /** The choices, for `enum` fields. */
  options: z.array(z.string().max(200)).max(100).optional(),
});
export type AskField = z.infer<typeof AskFieldSchema>;

/** A question a running flow puts to a person. */
export interface AskRequest {
  runId: string;
  nodeId: string;
  /** The rendered message. */
  message: string;
  fields: readonly AskField[];
}

/** A question a run started in the editor waits on (the Run panel shows it). */
export interface Question {
  flowId: string;
  runId: string;
  nodeId: string;
  message: string;
  fields: AskField[];
}

export type QuestionEvent =
  { type: 'run.question'; question: Question } | { type: 'run.question.closed'; runId: string; nodeId: string };

/** How the person answered: MCP elicitation's three actions. */
export type AskAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/**
 * Asks a person and waits for the answer: the MCP client (elicitation, or a
 * 2026-07-28 input-required result), the editor's Run panel, or a terminal.
 * Rejects when the signal aborts (the node's time limit, a cancelled run).
 */
export interface HumanInputPort {
  ask(request: AskRequest, signal: AbortSignalLike): Promise<AskAnswer>;
}

/** For hosts where nobody can be asked; `why` completes "…, and …" (what is missing there). */
export function noHumanInput(why: string): HumanInputPort {
  return {
    ask: (request) =>
      Promise.reject(
        new FlowbenchError('HUMAN_INPUT_UNAVAILABLE', `node "${request.nodeId}" asks a person for input, and ${why}`, {
          nodeId: request.nodeId,
        }),
      ),
  };
}

export const NO_HUMAN_INPUT = noHumanInput('nothing where this flow runs can ask one');

/** The schema of an answer to these fields: MCP elicitation's requested schema, and an ask node's output. */
export function answerSchema(fields: readonly AskField[]): {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
} {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const field of fields) {
    const type = field.type === 'enum' ? 'string' : field.type;
    properties[field.name] = {
      type,
      ...(field.title ? { title: field.title } : {}),
      ...(field.description ? { description: field.description } : {}),
      ...(field.type === 'enum' ? { enum: field.options ?? [] } : {}),
    };
  }
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The question as an MCP `elicitation/create` request's params (form mode). */
export function elicitationParams(request: AskRequest): {
  mode: 'form';
  message: string;
  requestedSchema: ReturnType<typeof answerSchema>;
} {
  return { mode: 'form', message: request.message, requestedSchema: answerSchema(request.fields) };
}

/**
 * The accepted content, checked against the fields (whatever asked, the answer
 * comes from outside: a client, a browser); throws HUMAN_INPUT_INVALID listing
 * each problem, keys no field names included.
 */
export function checkAnswer(request: AskRequest, content: unknown): Record<string, unknown> {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new FlowbenchError('HUMAN_INPUT_INVALID', `node "${request.nodeId}": the answer is not an object of fields`, {
      nodeId: request.nodeId,
      problems: [{ message: 'the answer is not an object' }],
    });
  }
  const given = content as Record<string, unknown>;
  const problems: { field: string; message: string }[] = [];
  const answer: Record<string, unknown> = {};
  for (const field of request.fields) {
    const value = given[field.name];
    if (value === undefined || value === '') {
      if (field.required) problems.push({ field: field.name, message: `${field.name}: an answer is required` });
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem) problems.push({ field: field.name, message: `${field.name}: ${problem}` });
    else answer[field.name] = value;
  }
  const unknown = Object.keys(given).filter((key) => !request.fields.some((f) => f.name === key));
  for (const key of unknown) problems.push({ field: key, message: `${key}: the question has no such field` });
  if (problems.length > 0) {
    throw new FlowbenchError(
      'HUMAN_INPUT_INVALID',
      `node "${request.nodeId}": ${problems.map((p) => p.message).join('; ')}`,
      { nodeId: request.nodeId, problems },
    );
  }
  return answer;
}

function fieldProblem(field: AskField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'expected text';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'expected a number';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'expected a whole number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected yes or no';
    case 'enum':
      return typeof value === 'string' && (field.options ?? []).includes(value)
        ? undefined
        : `expected one of ${(field.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`;
  }
}
