import type { z } from 'zod';
import { FlowbenchError } from './errors';

/**
 * The input parsed by the schema, or VALIDATION_ERROR listing every issue as
 * `path: message` (`what` names the whole value when the path is empty).
 */
export function parseOrRefuse<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new FlowbenchError('VALIDATION_ERROR', describeIssues(parsed.error.issues, what));
}

/** A schema's complaint: zod's issues, and any Standard Schema's once its path is plain keys. */
export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Every issue as `path: message`, joined by `; ` (`what` names the whole value when the path is empty). */
export function describeIssues(issues: readonly Issue[], what: string): string {
  return issues.map((i) => `${i.path.map(String).join('.') || what}: ${i.message}`).join('; ');
}
