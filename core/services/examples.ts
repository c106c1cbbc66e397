import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectImport } from '../formats/detect';
import type { Flow } from '../model/flow';
import type { FlowRepository } from '../store/flow-repository';
import { readImportFile } from './read-import-file';

export const EXAMPLES_FOLDER = fileURLToPath(new URL('../../resources/examples', import.meta.url));

/** Adds the shipped example flows, skipping any whose tool name is already used. */
export function installExamples(flows: FlowRepository, folder = EXAMPLES_FOLDER): { added: Flow[]; skipped: string[] } {
  const added: Flow[] = [];
  const skipped: string[] = [];
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const path = join(folder, file);
    const { flow } = detectImport(readImportFile(path), path);
    const toolName = (flow.tool as { name?: unknown } | undefined)?.name;
    if (typeof toolName === 'string' && flows.isToolNameTaken(toolName)) {
      skipped.push(file);
      continue;
    }
    added.push(flows.create(flow));
  }
  return { added, skipped };
}
