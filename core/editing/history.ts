import type { ChangeSet, FlowFieldsUpdate } from '../model/change-set';
import type { Flow } from '../model/flow';
import { mergeParts } from '../model/list-merge';
import { sameData, valuesAt, withChangedKeys } from '../model/same-json';

type Config = Record<string, unknown>;

/** One undoable edit: the change made, and the change that reverts it. */
export interface HistoryEntry {
  forward: ChangeSet;
  backward: ChangeSet;
  coalesceKey: string | undefined;
  at: number;
}

export interface History {
  past: HistoryEntry[];
  future: HistoryEntry[];
}

export const EMPTY_HISTORY: History = { past: [], future: [] };
export const HISTORY_LIMIT = 200;
/** Edits with the same key closer together than this are one undo step (typing in one field). */
export const COALESCE_MS = 1000;

/**
 * The history after an edit: a new undo step, or the last one extended when
 * the edit continues it (same key, soon after). Any edit clears the redo list.
 */
export function recordEdit(
  history: History,
  edit: { forward: ChangeSet; backward: ChangeSet; coalesceKey?: string | undefined },
  now: number,
): History {
  const last = history.past.at(-1);
  if (edit.coalesceKey && last?.coalesceKey === edit.coalesceKey && now - last.at < COALESCE_MS) {
    // The step keeps its first backward change: undo returns to before the first keystroke.
    return { past: [...history.past.slice(0, -1), { ...last, forward: edit.forward, at: now }], future: [] };
  }
  const entry: HistoryEntry = { ...edit, coalesceKey: edit.coalesceKey, at: now };
  return { past: [...history.past, entry].slice(-HISTORY_LIMIT), future: [] };
}

/**
 * The change that undoes the last step, and the history after it; undefined
 * when there is nothing to undo. With the flow as shown now, each node config
 * the step set is narrowed to the keys the step changed (stepKeysOnly).
 */
export function undo(history: History, flow?: Flow): { changes: ChangeSet; history: History } | undefined {
  const entry = history.past.at(-1);
  if (!entry) return undefined;
  return {
    changes: flow ? stepKeysOnly(flow, entry.backward, entry.forward) : entry.backward,
    history: { past: history.past.slice(0, -1), future: [...history.future, entry] },
  };
}

/** The change that redoes the last undone step, and the history after it. */
export function redo(history: History, flow?: Flow): { changes: ChangeSet; history: History } | undefined {
  const entry = history.future.at(-1);
  if (!entry) return undefined;
  return {
    changes: flow ? stepKeysOnly(flow, entry.forward, entry.backward) : entry.forward,
    history: { past: [...history.past, entry], future: history.future.slice(0, -1) },
  };
}

/**
 * `changes` with each node config it sets made of the config shown now and,
 * for the keys the step changed (where `changes` and `other`, its opposite,
 * differ), the values `changes` gives them. A step records whole configs, so
 * undoing the prompt typed here would otherwise also put back the temperature
 * another window set meanwhile, merged into this editor since (node-merge.ts).
 * The flow's own fields and notes are narrowed the same way (stepFieldsOnly).
 */
export function stepKeysOnly(flow: Flow, changes: ChangeSet, other: ChangeSet): ChangeSet {
  const nodes = new Map(flow.nodes.map((node) => [node.id, node]));
  const opposite = new Map(other.updateNodes.map((update) => [update.id, update.config]));
  return {
    ...changes,
    ...(changes.flow && other.flow ? { flow: stepFieldsOnly(flow, changes.flow, other.flow) } : {}),
    updateNodes: changes.updateNodes.map((update) => {
      const [now, theirs] = [nodes.get(update.id)?.config, opposite.get(update.id)];
      if (!update.config || !now || !theirs) return update;
      return { ...update, config: stepPartsOnly(withChangedKeys(now, theirs, update.config), now, theirs) };
    }),
  };
}

/**
 * A step's flow fields laid on those shown as stepPartsOnly lays a config:
 * undoing a note written here leaves the note another window wrote (merged
 * in since, ChangeResult.mergedFlow), undoing a line of the description
 * leaves the other window's lines, each tool setting on its own.
 */
function stepFieldsOnly(flow: Flow, step: FlowFieldsUpdate, opposite: FlowFieldsUpdate): FlowFieldsUpdate {
  // The keys the step sets, as shown now where the step left them as they were.
  const laid = (shown: Config, to: Config, from: Config) =>
    stepPartsOnly(withChangedKeys(valuesAt(shown, Object.keys(to)), from, to), shown, from);
  const fields = laid(flow, step, opposite);
  if (step.tool && opposite.tool) fields.tool = laid(flow.tool, step.tool, opposite.tool);
  return fields;
}

/**
 * `config` (a step's keys laid on the config shown) with each list the step
 * changed changed again item by item on the list shown, and each text of
 * several lines line by line (mergeParts), so that undoing an argument
 * added here keeps the one another window added since, and undoing a line
 * typed here keeps the line another window wrote. Where the two overlap,
 * the step's whole value, as for any other setting.
 */
function stepPartsOnly(config: Config, shown: Config, other: Config): Config {
  const result = { ...config };
  for (const [key, value] of Object.entries(config)) {
    const [from, now] = [other[key], shown[key]];
    if (sameData(value, from) || sameData(now, from)) continue;
    result[key] = mergeParts(from, now, value) ?? value;
  }
  return result;
}
