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

/** Every issue as `path: message`, joined by `; ` (`what` names the whole value when the path is empty). */
export function describeIssues(issues: readonly z.core.$ZodIssue[], what: string): string {
  return issues.map((i) => `${i.path.join('.') || what}: ${i.message}`).join('; ');
}
