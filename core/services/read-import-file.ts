import { readFileSync, statSync } from 'node:fs';
import { FlowbenchError } from '../model/errors';

/** Imports larger than this are refused before being read: 5,000-node flows take about 2 MB. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** Reads a file for import, refusing missing, non-regular and oversized files. */
export function readImportFile(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new FlowbenchError('FILE_NOT_FOUND', `${path} is not a file`, { path });
    size = stat.size;
  } catch (error) {
    if (error instanceof FlowbenchError) throw error;
    throw new FlowbenchError('FILE_NOT_FOUND', `cannot read ${path}: no such file`, { path }, { cause: error });
  }
  if (size > MAX_IMPORT_BYTES) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    throw new FlowbenchError(
      'FILE_TOO_LARGE',
      `${path} is ${mb(size)}; imports are limited to ${mb(MAX_IMPORT_BYTES)}`,
      {
        path,
        size,
        limit: MAX_IMPORT_BYTES,
      },
    );
  }
  return readFileSync(path, 'utf8');
}
