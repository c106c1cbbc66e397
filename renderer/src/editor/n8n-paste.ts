import { newItemId } from '../../../core/editing/ids';
import { urlsCalled } from '../../../core/editing/imported-urls';
import { pasteChanges, PASTE_OFFSET } from '../../../core/editing/paste';
import { importN8nWorkflow, isN8nWorkflow } from '../../../core/formats/n8n';
import { withImportProblems, type ImportProblem } from '../../../core/formats/shared';
import type { ChangeSetInput } from '../../../core/model/change-set';
import { FlowEdgeSchema, FlowNodeSchema, type Flow } from '../../../core/model/flow';
import { NoteSchema } from '../../../core/model/notes';

export interface N8nPaste {
  changes: ChangeSetInput;
  nodeIds: string[];
  noteIds: string[];
  /** What the import said about them, now listed in Problems. */
  problems: number;
}

/** How far right of the flow's nodes pasted n8n nodes start. */
const BESIDE = 320;

/**
 * Nodes copied in n8n (its clipboard holds them as a workflow's JSON) as a
 * paste into `flow`: imported as `flowbench import` does, given free ids,
 * placed right of the flow's nodes. A trigger among them is the flow's input
 * node when it has one; the inputs and memory channels they bring join the
 * flow's, and what the import said joins its Problems. Undefined when `text`
 * is no n8n JSON; throws what the import refuses.
 */
export function n8nPaste(flow: Flow, text: string): N8nPaste | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isN8nWorkflow(value)) return undefined;
  const imported = importN8nWorkflow(value, { results: false });
  const doc = imported.flow as { nodes: unknown[]; edges: unknown[]; notes: unknown[]; parameters: Flow['parameters'] };
  let nodes = doc.nodes.map((n) => FlowNodeSchema.parse(n));
  let edges = doc.edges.map((e) => FlowEdgeSchema.parse(e));
  const notes = doc.notes.map((n) => NoteSchema.parse(n));

  const input = flow.nodes.find((n) => n.type === 'input');
  const triggers = new Set(input ? nodes.filter((n) => n.type === 'input').map((n) => n.id) : []);
  const fromInput = edges.filter((e) => triggers.has(e.source));
  nodes = nodes.filter((n) => !triggers.has(n.id));
  edges = edges.filter((e) => !triggers.has(e.source));

  const right = flow.nodes.length > 0 ? Math.max(...flow.nodes.map((n) => n.position.x)) + BESIDE : 0;
  const top = flow.nodes.length > 0 ? Math.min(...flow.nodes.map((n) => n.position.y)) : 0;
  const shift = <T extends { position: { x: number; y: number } }>(item: T): T => ({
    ...item,
    position: { x: item.position.x + right - PASTE_OFFSET, y: item.position.y + top - PASTE_OFFSET },
  });
  const pasted = pasteChanges(flow, { nodes: nodes.map(shift), edges, notes: notes.map(shift) });
  const renamed = new Map(nodes.map((n, i) => [n.id, pasted.nodeIds[i] as string]));
  const usedEdges = new Set([...flow.edges, ...(pasted.changes.addEdges ?? [])].map((e) => e.id));
  const joined = fromInput.flatMap((e) => {
    const target = renamed.get(e.target);
    if (!input || !target) return [];
    const id = newItemId(usedEdges, 'e');
    usedEdges.add(id);
    return [{ id, source: input.id, sourcePort: 'out', target, targetPort: 'in' }];
  });

  const problems: ImportProblem[] = imported.problems.map((p) => {
    const nodeId = p.nodeId === undefined ? undefined : (renamed.get(p.nodeId) ?? input?.id);
    return { ...p, ...(nodeId !== undefined ? { nodeId } : {}) };
  });
  // Nodes copied from a workflow found on the web call its author's URLs, as an imported file's do.
  const added = (pasted.changes.addNodes ?? []).map((n) => FlowNodeSchema.parse(n));
  problems.push(...urlsCalled(added, "the nodes' author"));
  const names = new Set(flow.parameters.map((p) => p.name));
  const parameters = doc.parameters.filter((p) => !names.has(p.name));
  const channels = ((imported.flow.memory as Flow['memory'] | undefined)?.channels ?? []).filter(
    (c) => !flow.memory.channels.some((own) => own.id === c.id),
  );
  const changes = pasted.changes;
  return {
    changes: {
      ...changes,
      addEdges: [...(changes.addEdges ?? []), ...joined],
      flow: {
        ...changes.flow,
        ...(parameters.length > 0 ? { parameters: [...flow.parameters, ...parameters] } : {}),
        ...(channels.length > 0 ? { memory: { channels: [...flow.memory.channels, ...channels] } } : {}),
        // After those an earlier import or paste left, as an import records them.
        ...(problems.length > 0 ? { metadata: withImportProblems(flow, problems).metadata as Flow['metadata'] } : {}),
      },
    },
    nodeIds: pasted.nodeIds,
    noteIds: pasted.noteIds,
    problems: problems.length,
  };
}
