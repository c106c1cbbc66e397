import type { ImportedFlow, ImportProblem } from '../formats/shared';
import { isRecord } from '../model/is-record';
import type { Problem } from '../model/problems';

/** A node setting that breaks its type's schema, by its top-level key, with the first reason. */
interface UnfitSetting {
  nodeId: string;
  type: string;
  key: string;
  reason: string;
}

/** `config.values.0.name` → `values`; undefined for a problem that names no setting (a node's version). */
const settingKey = (field: string | undefined): string | undefined => /^config\.([^.[\]]+)/.exec(field ?? '')?.[1];

function unfitSettings(flow: Record<string, unknown>, problems: readonly Problem[]): UnfitSetting[] {
  const types = new Map(
    (Array.isArray(flow.nodes) ? flow.nodes : []).filter(isRecord).map((node) => [node.id, String(node.type)]),
  );
  const found = new Map<string, UnfitSetting>();
  for (const problem of problems) {
    const key = settingKey(problem.field);
    if (problem.code !== 'INVALID_CONFIG' || problem.nodeId === undefined || key === undefined) continue;
    const at = `${problem.nodeId}\u0000${key}`;
    if (found.has(at)) continue;
    // Validation's message names the node first; the problem is on the node already.
    const reason = problem.message.replace(/^node "[^"]*" /, '');
    found.set(at, { nodeId: problem.nodeId, type: types.get(problem.nodeId) ?? 'this', key, reason });
  }
  return [...found.values()];
}

/**
 * Another tool's flow with each node setting its conversion made that a
 * Flowbench node cannot hold (past a limit: a code of several megabytes, a
 * name of 500 characters) left at the setting's default, each said as an
 * error where it is. One such setting refused the whole file before, with
 * every node that did fit. Native files are not given this: a file Flowbench
 * wrote must be valid as it is. `problems`: the flow's validation's; the
 * same object is returned when none is about such a setting.
 */
export function leaveOutUnfitSettings(imported: ImportedFlow, problems: readonly Problem[]): ImportedFlow {
  const unfit = unfitSettings(imported.flow, problems);
  if (unfit.length === 0) return imported;
  const byNode = new Map<string, Set<string>>();
  for (const { nodeId, key } of unfit) byNode.set(nodeId, (byNode.get(nodeId) ?? new Set()).add(key));
  const nodes = (imported.flow.nodes as unknown[]).map((node) => {
    const keys = isRecord(node) ? byNode.get(node.id as string) : undefined;
    if (!keys || !isRecord(node) || !isRecord(node.config)) return node;
    return { ...node, config: Object.fromEntries(Object.entries(node.config).filter(([key]) => !keys.has(key))) };
  });
  const said: ImportProblem[] = unfit.map(({ nodeId, type, key, reason }) => ({
    code: 'IMPORT_PROBLEM',
    nodeId,
    source: imported.settingSource?.(nodeId, `config.${key}`) ?? `config.${key}`,
    message: `its setting ${key} does not fit a Flowbench ${type} node (${reason}), so it is left at its default here: set it again`,
  }));
  return { ...imported, flow: { ...imported.flow, nodes }, problems: [...imported.problems, ...said] };
}
