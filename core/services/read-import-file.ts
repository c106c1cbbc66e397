import { readFileSync, statSync } from 'node:fs';
import { FlowbenchError } from '../model/errors';
import { MAX_FLOW_FILE_BYTES, megabytes } from '../model/limits';
import { fileErrorReason } from '../model/file-errors';

/** Imports larger than this are refused before being read. */
export const MAX_IMPORT_BYTES = MAX_FLOW_FILE_BYTES;

/** Reads a file for import, refusing missing, non-regular and oversized files. */
export function readImportFile(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new FlowbenchError('FILE_NOT_FOUND', `${path} is not a file`, { path });
    size = stat.size;
  } catch (error) {
    if (error instanceof FlowbenchError) throw error;
    throw unreadable(path, error);
  }
  if (size > MAX_IMPORT_BYTES) {
    throw new FlowbenchError(
      'FILE_TOO_LARGE',
      `${path} is ${megabytes(size)}; imports are limited to ${megabytes(MAX_IMPORT_BYTES)}`,
      {
        path,
        size,
        limit: MAX_IMPORT_BYTES,
      },
    );
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    // A file this user may not read was INTERNAL_ERROR ("please report it") with Node's stack.
    throw unreadable(path, error);
  }
}

/** FILE_NOT_FOUND saying why `path` cannot be read: missing, not allowed, or what the system said. */
function unreadable(path: string, error: unknown): FlowbenchError {
  return new FlowbenchError('FILE_NOT_FOUND', `cannot read ${path}: ${fileErrorReason(error)}`, { path });
}
