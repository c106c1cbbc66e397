import { detectImport, type ImportFormat } from '../formats/detect';
import type { Flow } from '../model/flow';
import { hasErrors, type Problem } from '../model/problems';
import { WRITE_TRANSACTION } from '../store/database';
import type { Services } from './open-services';

export interface ImportReport {
  format: ImportFormat;
  flow: Flow;
  /** Every problem the stored flow has, warnings included; errors keep it a draft. */
  problems: Problem[];
  /** The published version, when the source was published and the flow is valid. */
  publishedVersion?: number;
}

/**
 * Imports a file's text in any supported format. Native flows must be valid;
 * flows from other tools are kept as drafts with what could not be carried
 * over listed on them, under a free tool name.
 */
export function importFlowText(services: Services, text: string, source: string): ImportReport {
  const imported = detectImport(text, source);
  if (imported.format === 'native') {
    const flow = services.flows.create(imported.flow);
    return { format: 'native', flow, problems: services.flows.validate(flow).problems };
  }
  const tool = (imported.flow.tool ?? {}) as Record<string, unknown>;
  const metadata = (imported.flow.metadata ?? {}) as Record<string, unknown>;
  const candidate = {
    ...imported.flow,
    tool: { ...tool, name: services.flows.freeToolName(String(tool.name)) },
    metadata: imported.problems.length > 0 ? { ...metadata, importProblems: imported.problems } : metadata,
  };
  return services.database.db.transaction(() => {
    const flow = services.flows.create(candidate, { isDraft: true });
    const problems = services.flows.validate(flow).problems;
    let publishedVersion: number | undefined;
    if (imported.isPublished && !hasErrors(problems)) {
      publishedVersion = services.versions.publish(flow.id, `imported from ${source}`).version;
    }
    return { format: imported.format, flow, problems, ...(publishedVersion !== undefined ? { publishedVersion } : {}) };
  }, WRITE_TRANSACTION);
}
