import { statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import type { AppCommand } from '../../core/api/app-commands';
import { toFlowbenchError } from '../../core/model/errors';
import { readImportFile } from '../../core/services/read-import-file';

/** What the app opens as a flow file (the file association registers the same). */
export const FLOW_FILE_EXTENSIONS = ['json', 'yaml', 'yml'] as const;

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The flow files a command line names: a launch from the file manager, or a
 * second launch passing its file on. Flags, the app's own path and anything
 * that is not an existing file with a flow file's extension are not files to open.
 */
export function flowFilesIn(argv: readonly string[], cwd: string): string[] {
  return argv
    .slice(1)
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => resolve(cwd, arg))
    .filter(
      (path) =>
        (FLOW_FILE_EXTENSIONS as readonly string[]).includes(extname(path).slice(1).toLowerCase()) && isFile(path),
    );
}

/** The command that makes the window import the file (read within the import size limit), or say why it cannot. */
export function importCommand(path: string): AppCommand {
  try {
    return { name: 'import-file', fileName: basename(path), text: readImportFile(path) };
  } catch (error) {
    return { name: 'import-refused', fileName: basename(path), message: toFlowbenchError(error).message };
  }
}
