import { FlowbenchError } from '../model/errors';

/** Bad usage of a command: exit code 2. */
export function usageError(message: string): FlowbenchError {
  return new FlowbenchError('USAGE_ERROR', message);
}
