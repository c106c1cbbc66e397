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
