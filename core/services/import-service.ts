import { urlsCalled } from '../editing/imported-urls';
import { isLayoutable, layOutIfNeeded } from '../editing/layout';
import { loadImporters } from '../formats/lazy';
import { fieldWarnings, withImportProblems, type ImportedFlow, type ImportFormat } from '../formats/shared';
import { droppedSettings } from '../model/dropped-fields';
import type { Flow } from '../model/flow';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { hasErrors, type Problem } from '../model/problems';
import { WRITE_TRANSACTION } from '../store/database';
import type { Services } from './open-services';
import { AgentSettingsSchema } from '../model/agents';
import { leaveOutUnfitSettings } from './unfit-settings';

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
 * A flow file's text read as `import` reads it (`validate <file>` shows the
 * same): converted to a native flow, with what could not be carried over
 * listed. Node settings that the node's type does not have (a misspelt
 * `temprature` in a native file, a field of a seed's memory read that
 * Flowbench has no setting for) are left out, each said where it is: the
 * flow's schema takes any config, validation parses it by type and would
 * drop them without a word, and a new flow holding one is refused. Another
 * tool's settings that a node cannot hold (past a limit) are left at their
 * defaults, each said as an error (see unfit-settings.ts).
 */
export async function readFlowFile(text: string, source: string): Promise<ImportedFlow> {
  const read = (await loadImporters()).detectImport(text, source);
  // Another format's flow has its id only once stored: any will do to validate its nodes.
  const validate = (candidate: ImportedFlow) =>
    validateFlow({ id: 'file', ...candidate.flow }, { catalogue: nodeRegistry });
  let validated = validate(read);
  const imported = read.format === 'native' ? read : leaveOutUnfitSettings(read, validated.problems);
  if (imported !== read) validated = validate(imported);
  const { flow } = validated;
  const dropped = flow ? droppedSettings(imported.flow, flow) : [];
  if (dropped.length === 0) return imported;
  // Such a node's config as validation parsed it: its own settings, without those.
  const parsed = new Map(flow?.nodes.map((node) => [node.id, node.config]));
  const withNodes = new Set(dropped.map((setting) => setting.nodeId));
  const nodes = (imported.flow.nodes as Record<string, unknown>[]).map((node) =>
    withNodes.has(node.id as string) ? { ...node, config: parsed.get(node.id as string) } : node,
  );
  const warnings = fieldWarnings(
    dropped.map(({ nodeId, type, field }) => ({
      // Where it is in the file, as its importer says; where the importer made the setting, the node says where.
      source: imported.settingSource?.(nodeId, field) ?? field,
      nodeId,
      message: `not a setting of ${type} nodes; left out`,
    })),
    (count) => `${count} more node settings their node types do not have were left out`,
  );
  return { ...imported, flow: { ...imported.flow, nodes }, problems: [...imported.problems, ...warnings] };
}

/**
 * Imports a file's text in any supported format. Native flows must be valid;
 * flows from other tools are kept as drafts with what could not be carried
 * over listed on them, under a free tool name.
 */
export async function importFlowText(services: Services, text: string, source: string): Promise<ImportReport> {
  const imported = await readFlowFile(text, source);
  const layout = await laidOut(imported.flow);
  const note = layout.reason ? { laidOut: layout.reason } : {};
  if (imported.format === 'native') {
    // Fields the file has and a flow does not are said on the flow, as other formats' leftovers are.
    const candidate = withImportProblems(layout.flow, imported.problems);
    // A native file must be valid as it is (create refuses it otherwise); the notes on the URLs it
    // calls then keep it a draft, which may carry them, until they are dismissed.
    const validated = services.flows.validate(candidate);
    const calls = validated.flow && !hasErrors(validated.problems) ? urlsCalled(validated.flow.nodes) : [];
    const flow =
      calls.length > 0
        ? services.flows.create(withImportProblems(candidate, calls), { isDraft: true })
        : services.flows.create(candidate);
    return { format: 'native', flow, problems: services.flows.problemsOf(flow), ...note };
  }
  const tool = (imported.flow.tool ?? {}) as Record<string, unknown>;
  const unknownAgents = agentsToCreate(services, imported.flow.nodes);
  const importProblems = [...imported.problems];
  if (imported.isPublished && unknownAgents.size > 0) {
    importProblems.push({
      code: 'IMPORT_PROBLEM',
      source: 'status',
      message: `the file says PUBLISHED, but its agent versions (${[...unknownAgents.keys()].join(', ')}) are new to Flowbench: it publishes once you review the agents made for them`,
    });
  }
  const toolName = services.flows.freeToolName(String(tool.name));
  if (toolName !== tool.name) {
    importProblems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: 'tool name',
      message: `another flow already uses the tool name "${String(tool.name)}"; imported as "${toolName}"`,
    });
  }
  const named = withImportProblems({ ...layout.flow, tool: { ...tool, name: toolName } }, importProblems);
  // Another tool's file calls URLs too (an n8n workflow's HTTP Request nodes): each said, as a native file's.
  // Validated as it will be stored (create gives it its id).
  const checked = services.flows.validate({ id: 'importing', ...named });
  const calls = checked.flow ? urlsCalled(checked.flow.nodes) : [];
  const candidate = calls.length > 0 ? withImportProblems(named, calls) : named;
  return services.database.db.transaction(() => {
    for (const [versionId, stepNames] of unknownAgents) {
      services.agents.ensureImported(versionId, stepNames.join(', '), AgentSettingsSchema.parse({}));
    }
    const flow = services.flows.create(candidate, { isDraft: true });
    const problems = services.flows.problemsOf(flow);
    let publishedVersion: number | undefined;
    if (imported.isPublished && !hasErrors(problems) && unknownAgents.size === 0) {
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

/**
 * Agent versions the imported steps run that the library lacks, with the
 * names of the steps using each: the import creates one agent per version
 * (default provider and model, in review) so the flow runs at once.
 */
function agentsToCreate(services: Services, nodes: unknown): Map<string, string[]> {
  const wanted = new Map<string, string[]>();
  for (const node of Array.isArray(nodes)
    ? (nodes as { type?: unknown; label?: unknown; id?: unknown; config?: unknown }[])
    : []) {
    const callees = typeof node.type === 'string' ? nodeRegistry.callees({ type: node.type, config: node.config }) : [];
    for (const callee of callees) {
      if (callee.kind !== 'agent' || services.agents.hasVersion(callee.versionId)) continue;
      const names = wanted.get(callee.versionId) ?? [];
      names.push(String(node.label || node.id));
      wanted.set(callee.versionId, names);
    }
  }
  return wanted;
}
