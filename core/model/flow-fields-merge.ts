import { FlowFieldsUpdateSchema, type ChangeSet, type FlowFieldsUpdate } from './change-set';
import { FlowbenchError } from './errors';
import type { Flow } from './flow';
import { mergeParts } from './list-merge';
import { parseOrRefuse } from './parse';
import { sameData } from './same-json';
import type { TestCase } from './test-cases';

/**
 * An edit of the flow's own fields (name, description, tool settings,
 * parameters, tests…) as it applies to the flow stored now, when another
 * window may have changed them since the edit began: each field the edit
 * sets, and each tool setting on its own, is compared with the value the
 * edit started from (`ChangeSet.fieldsBase`). A field the other window left
 * alone, or changed to what this edit sets too, takes this edit's value, so
 * two windows editing different fields both keep theirs; a text of several
 * lines both changed (the description, the tool's description an LLM reads)
 * merges line by line, a list (parameters, test cases) item by item
 * (mergeParts), where the two changes do not overlap; any other field
 * both changed is an EDIT_CONFLICT naming it. Notes are merged apart
 * (notes-merge.ts). Fields without a base are taken as sent (an API client
 * that sends none).
 */
export function mergeFlowFields(stored: Flow, changes: ChangeSet): ChangeSet['flow'] {
  const { flow: fields, fieldsBase: base } = changes;
  if (!fields || !base) return fields;
  const merge = (name: string, started: unknown, now: unknown, ours: unknown): unknown => {
    if (started === undefined || ours === undefined) return ours;
    if (sameData(now, started) || sameData(now, ours)) return ours;
    const merged = mergeParts(started, now, ours);
    if (merged !== undefined) return merged;
    throw new FlowbenchError(
      'EDIT_CONFLICT',
      `the flow's ${name} was changed elsewhere since this edit began; reload to see it`,
      { field: name },
    );
  };
  const { tool, ...own } = fields;
  const merged: Record<string, unknown> = { ...fields };
  for (const [key, ours] of Object.entries(own)) {
    if (key === 'notes') continue; // merged apart (notes-merge.ts)
    const [started, now] = [
      (base as Record<string, unknown>)[key],
      (stored as unknown as Record<string, unknown>)[key],
    ];
    merged[key] = merge(key, started, now, key === 'tests' ? renumberAddedCases(started, now, ours) : ours);
  }
  if (tool) {
    const [started, now] = [base.tool as Record<string, unknown> | undefined, stored.tool as Record<string, unknown>];
    merged.tool = Object.fromEntries(
      Object.entries(tool).map(([key, ours]) => [key, merge(`tool ${key}`, started?.[key], now[key], ours)]),
    );
  }
  // Two texts merged may together pass a limit each kept to (a description's 4,000 characters).
  return parseOrRefuse(FlowFieldsUpdateSchema, merged, 'the merged flow settings');
}

/**
 * This edit's test cases with each one it added under an id another
 * window's new case took meanwhile (both windows clicked Add case at once,
 * and both took the next `case_<n>`) renumbered to the next free id, and its
 * name with it where it was the one given (`Case <n>`), so that the two are
 * both kept instead of refused. A case under an id a person chose (not
 * `case_<n>`) is left as it is, and refused as before.
 */
function renumberAddedCases(base: unknown, stored: unknown, ours: unknown): unknown {
  if (!Array.isArray(base) || !Array.isArray(stored) || !Array.isArray(ours)) return ours;
  const [started, now, mine] = [base, stored, ours] as TestCase[][];
  const before = new Set(started!.map((test) => test.id));
  const theirs = new Map(now!.filter((test) => !before.has(test.id)).map((test) => [test.id, test]));
  const taken = new Set([...now!, ...mine!].map((test) => test.id));
  return mine!.map((test) => {
    const other = theirs.get(test.id);
    const counted = /^case_(\d+)$/.exec(test.id);
    if (!counted || before.has(test.id) || !other || sameData(other, test)) return test;
    let n = Number(counted[1]);
    while (taken.has(`case_${n}`)) n++;
    taken.add(`case_${n}`);
    return { ...test, id: `case_${n}`, name: test.name === `Case ${counted[1]}` ? `Case ${n}` : test.name };
  });
}

/** The fields of `applied` (an edit's fields after the merge) that differ from what the edit sent. */
export function mergedFields(sent: FlowFieldsUpdate | undefined, applied: FlowFieldsUpdate | undefined) {
  if (!sent || !applied) return undefined;
  const changed = Object.entries(applied).filter(
    ([key, value]) => !sameData(value, sent[key as keyof FlowFieldsUpdate]),
  );
  return changed.length > 0 ? (Object.fromEntries(changed) as FlowFieldsUpdate) : undefined;
}

/** How a toast names each flow field, and each tool setting, where its key does not say it. */
const FIELD_NAMES: Record<string, string> = {
  tests: 'test cases',
  testsGatePublish: 'test gate',
  notes: 'sticky notes',
  memory: 'memory settings',
};
const TOOL_NAMES: Record<string, string> = { whenToUse: 'when to use', whenNotToUse: 'when not to use' };

/**
 * The flow an editor shows after the host merged its edit of the flow's own
 * fields with another window's (ChangeResult.mergedFlow): each field (each
 * tool setting on its own) the editor left as it sent it (`sent`) takes the
 * host's value; one changed here again since keeps this window's, which the
 * host merges when that edit is saved. With the names of what was taken.
 */
export function rebaseFlowFields(shown: Flow, sent: Flow, host: FlowFieldsUpdate): { flow: Flow; taken: string[] } {
  const fields: Record<string, unknown> = {};
  const tool: Record<string, unknown> = {};
  const taken: string[] = [];
  const take = (
    into: Record<string, unknown>,
    key: string,
    [mine, before]: unknown[],
    value: unknown,
    name: string,
  ) => {
    if (!sameData(mine, before) || sameData(mine, value)) return;
    into[key] = value;
    taken.push(name);
  };
  const [shownFields, sentFields] = [shown, sent] as unknown as Record<string, unknown>[];
  const [shownTool, sentTool] = [shown.tool, sent.tool] as Record<string, unknown>[];
  for (const [key, value] of Object.entries(host)) {
    if (key !== 'tool') take(fields, key, [shownFields![key], sentFields![key]], value, FIELD_NAMES[key] ?? key);
  }
  for (const [key, value] of Object.entries(host.tool ?? {})) {
    take(tool, key, [shownTool![key], sentTool![key]], value, `tool ${TOOL_NAMES[key] ?? key}`);
  }
  return { flow: { ...shown, ...fields, tool: { ...shown.tool, ...tool } }, taken };
}
