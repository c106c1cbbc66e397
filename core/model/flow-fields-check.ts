import type { ChangeSet } from './change-set';
import { FlowbenchError } from './errors';
import type { Flow } from './flow';
import { sameData } from './same-json';

/**
 * Refuses an edit of the flow's own fields (name, description, tool
 * settings, parameters, tests…) that another window changed since the edit
 * began: each field the edit sets, and each tool setting on its own, is
 * compared with the value the edit started from (`ChangeSet.fieldsBase`). A
 * field the other window left alone, or changed to what this edit sets too,
 * passes, so two windows editing different fields both keep theirs. Notes are
 * merged instead (notes-merge.ts). Fields without a base are not checked (an
 * API client that sends none).
 */
export function checkFlowFields(stored: Flow, changes: ChangeSet): void {
  const { flow: fields, fieldsBase: base } = changes;
  if (!fields || !base) return;
  const refuse = (name: string) => {
    throw new FlowbenchError(
      'EDIT_CONFLICT',
      `the flow's ${name} was changed elsewhere since this edit began; reload to see it`,
      { field: name },
    );
  };
  const check = (name: string, started: unknown, now: unknown, ours: unknown) => {
    if (started === undefined || ours === undefined) return;
    if (!sameData(now, started) && !sameData(now, ours)) refuse(name);
  };
  const { tool, ...own } = fields;
  for (const [key, ours] of Object.entries(own)) {
    if (key === 'notes') continue; // merged, not refused (notes-merge.ts)
    check(key, (base as Record<string, unknown>)[key], (stored as unknown as Record<string, unknown>)[key], ours);
  }
  for (const [key, ours] of Object.entries(tool ?? {})) {
    check(
      `tool ${key}`,
      (base.tool as Record<string, unknown> | undefined)?.[key],
      (stored.tool as Record<string, unknown>)[key],
      ours,
    );
  }
}
