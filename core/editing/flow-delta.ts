import type { Flow } from '../model/flow';

/**
 * What changed between two versions of a flow, for a side that holds the
 * first (Find's worker): the fields whose value is not the same object, and
 * of the lists (nodes, edges, notes…) only the items that are not. An edit
 * in the editor makes a new flow that shares every untouched node with the
 * last one, so a prompt typed into on a 10,000-node flow sends one node
 * instead of copying the whole flow to the worker (22 ms on the page, at each
 * key press while Find is open with `.*`). Not flow-diff.ts: that one says
 * what changed for a person to read; this one is what a copy needs.
 */
export interface FlowDelta {
  /** Fields whose new value goes whole (a list is here when it was not a list before). */
  fields: Record<string, unknown>;
  /** Fields the new flow no longer has. */
  removed: string[];
  /** Lists: their new length, and each item at an index where it changed. */
  lists: Record<string, { length: number; changed: [index: number, item: unknown][] }>;
}

type Fields = Record<string, unknown>;

/** The delta that turns `from` into `to` (applyFlowDelta). */
export function flowDelta(from: Flow, to: Flow): FlowDelta {
  const before = from as unknown as Fields;
  const after = to as unknown as Fields;
  const delta: FlowDelta = { fields: {}, removed: [], lists: {} };
  for (const key of Object.keys(before)) if (!(key in after)) delta.removed.push(key);
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (value === old) continue;
    if (!Array.isArray(value) || !Array.isArray(old)) {
      delta.fields[key] = value;
      continue;
    }
    const changed: [number, unknown][] = [];
    for (let i = 0; i < value.length; i++) if (value[i] !== old[i]) changed.push([i, value[i]]);
    delta.lists[key] = { length: value.length, changed };
  }
  return delta;
}

/** `base` with a delta made from it (flowDelta) applied: a new flow, `base` left as it was. */
export function applyFlowDelta(base: Flow, delta: FlowDelta): Flow {
  const next: Fields = { ...(base as unknown as Fields), ...delta.fields };
  for (const key of delta.removed) delete next[key];
  for (const [key, { length, changed }] of Object.entries(delta.lists)) {
    const list = ((base as unknown as Fields)[key] as unknown[]).slice(0, length);
    for (const [index, item] of changed) list[index] = item;
    next[key] = list;
  }
  return next as unknown as Flow;
}
