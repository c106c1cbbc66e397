import { FlowbenchError } from '../model/errors';
import { lib } from './lib';

/** Bad usage of a command: exit code 2. */
export function usageError(message: string): FlowbenchError {
  return new FlowbenchError('USAGE_ERROR', message);
}

/** `--conversation`'s value, checked; undefined when the option was not given. */
export function conversationOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = lib.ConversationSchema.safeParse(value);
  if (!parsed.success) throw usageError(`--conversation: ${parsed.error.issues[0]?.message}, got "${value}"`);
  return parsed.data;
}

/**
 * A number option's value, checked: without it, `runs --limit 2.5` and
 * `--offset 1e20` reached SQLite (a "datatype mismatch" with its stack),
 * `--limit abc` was taken as the default and `price set --input ""` as 0.
 */
export function numberOption(
  flag: string,
  text: string,
  { min = -Infinity, max = Infinity, whole = true }: { min?: number; max?: number; whole?: boolean },
): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || (whole && !Number.isInteger(value)) || value < min || value > max) {
    const kind = whole ? 'a whole number' : 'a number';
    const range = Number.isFinite(min)
      ? ` from ${count(min)}${Number.isFinite(max) ? ` to ${count(max)}` : ''}`
      : Number.isFinite(max)
        ? ` up to ${count(max)}`
        : '';
    throw usageError(`${flag} takes ${kind}${range}, got "${text}"`);
  }
  return value;
}

const count = (n: number) => n.toLocaleString('en');
