import { isLayoutable, layOutIfNeeded } from '../editing/layout';
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
  /** Why the nodes were laid out anew (positions missing, overlapping, a branching flow in one row). */
  laidOut?: string;
}

/** The imported flow laid out (the editor's Layout) when its positions do not show its shape. */
async function laidOut<T>(flow: T): Promise<{ flow: T; reason?: string }> {
  return isLayoutable(flow) ? await layOutIfNeeded(flow) : { flow };
}

/**
 * Imports a file's text in any supported format. Native flows must be valid;
 * flows from other tools are kept as drafts with what could not be carried
 * over listed on them, under a free tool name.
 */
export async function importFlowText(services: Services, text: string, source: string): Promise<ImportReport> {
  const imported = detectImport(text, source);
  const layout = await laidOut(imported.flow);
  const note = layout.reason ? { laidOut: layout.reason } : {};
  if (imported.format === 'native') {
    const flow = services.flows.create(layout.flow);
    return { format: 'native', flow, problems: services.flows.validate(flow).problems, ...note };
  }
  const tool = (imported.flow.tool ?? {}) as Record<string, unknown>;
  const metadata = (imported.flow.metadata ?? {}) as Record<string, unknown>;
  const candidate = {
    ...layout.flow,
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
    return {
      format: imported.format,
      flow,
      problems,
      ...(publishedVersion !== undefined ? { publishedVersion } : {}),
      ...note,
    };
  }, WRITE_TRANSACTION);
}
