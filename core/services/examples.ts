import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isNativeFlow, upgradeNative } from '../formats/native';
import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { FlowRepository } from '../store/flow-repository';
import { readImportFile } from './read-import-file';

export const EXAMPLES_FOLDER = fileURLToPath(new URL('../../resources/examples', import.meta.url));

/**
 * A shipped example, a native flow file, read without the other formats'
 * importers (formats/lazy.ts): a new database's first command seeds it.
 */
function readExample(path: string): Record<string, unknown> {
  const value: unknown = JSON.parse(readImportFile(path));
  if (!isNativeFlow(value)) {
    throw new FlowbenchError('UNSUPPORTED_FORMAT', `${path} is not a Flowbench flow file, as every example is`);
  }
  return upgradeNative(value);
}

/** Adds the shipped example flows, skipping any whose tool name is already used. */
export function installExamples(flows: FlowRepository, folder = EXAMPLES_FOLDER): { added: Flow[]; skipped: string[] } {
  const added: Flow[] = [];
  const skipped: string[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const path = join(folder, file);
    const flow = readExample(path);
    const toolName = (flow.tool as { name?: unknown } | undefined)?.name;
    if (typeof toolName === 'string' && flows.isToolNameTaken(toolName)) {
      skipped.push(file);
      continue;
    }
    added.push(flows.create(flow));
  }
  return { added, skipped };
}
