import { toFlowbenchError } from '../../core/model/errors';

/** How many times a read is made while the host says its run records are still being written. */
const TRIES = 5;
const PAUSE_MS = 1_000;

/**
 * Makes `read` again, a second apart, while the host answers DATABASE_BUSY:
 * on a loaded machine the host's run writer can be behind, and the host then
 * refuses a list that would leave its newest runs out (instead of showing one
 * that looks complete and is not). The caller sees the error only if it lasts.
 * For reads only: a change is never made twice.
 */
export async function readWhenWritten<T>(read: () => Promise<T>, pauseMs = PAUSE_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= TRIES || toFlowbenchError(error).code !== 'DATABASE_BUSY') throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
