import { diff3Merge } from 'node-diff3';
import { isRecord } from './is-record';
import { mergeLines } from './merge-text';
import { dataKey, sameData } from './same-json';

/** Both sides changed one item (or one field of it) differently: the list cannot be merged. */
const CONFLICT = Symbol('conflict');

/**
 * The fields an item of a config list is known by, in the order tried: a
 * return value's `id`, an argument's or a field's `name`, a memory read's
 * `channel`, a summary field's `label`. One that every item of the three
 * lists has, as a text unique in each list, identifies them.
 */
const IDENTITY_FIELDS = ['id', 'name', 'channel', 'label'] as const;

/** The identity field the three lists' items share, if one does. */
function identityField(lists: readonly (readonly unknown[])[]): string | undefined {
  return IDENTITY_FIELDS.find((field) =>
    lists.every((list) => {
      const names = list.map((item) => (isRecord(item) ? item[field] : undefined));
      return names.every((name) => typeof name === 'string') && new Set(names).size === names.length;
    }),
  );
}

/** A value both sides may have changed: the side that changed it, or CONFLICT when both did differently. */
function pick(base: unknown, stored: unknown, ours: unknown): unknown {
  if (sameData(ours, base)) return stored;
  if (sameData(stored, base) || sameData(stored, ours)) return ours;
  return CONFLICT;
}

/**
 * One item both sides may have changed: as `pick`, and when both changed an
 * object item, field by field (one window's prompt text, the other's type),
 * a text of several lines both changed line by line (mergeLines). A field
 * both changed differently otherwise, or an item one side removed and the
 * other changed, is a CONFLICT. Undefined: the item is gone.
 */
function mergeItem(base: unknown, stored: unknown, ours: unknown): unknown {
  const whole = pick(base, stored, ours);
  if (whole !== CONFLICT || !isRecord(base) || !isRecord(stored) || !isRecord(ours)) return whole;
  const item: Record<string, unknown> = {};
  for (const field of new Set([...Object.keys(stored), ...Object.keys(ours)])) {
    const picked = pick(base[field], stored[field], ours[field]);
    const value = picked === CONFLICT ? (mergeLines(base[field], stored[field], ours[field]) ?? CONFLICT) : picked;
    if (value === CONFLICT) return CONFLICT;
    if (value !== undefined) item[field] = value;
  }
  return item;
}

/**
 * The order of a merged list of items without an identity field, as git
 * merges lines: diff3 of the two sides' sequences against the base's. Where
 * both sides added items at the same place (two windows each ticked a tool),
 * the stored ones come first, then this edit's; any other overlap (edits of
 * neighbouring items) is undefined, a conflict.
 */
function orderByPlace(
  base: readonly string[],
  stored: readonly string[],
  ours: readonly string[],
): string[] | undefined {
  const order: string[] = [];
  for (const region of diff3Merge([...ours], [...base], [...stored])) {
    if (region.ok) order.push(...region.ok);
    else if (region.conflict?.o.length === 0) {
      const added = new Set(region.conflict.b);
      order.push(...region.conflict.b, ...region.conflict.a.filter((key) => !added.has(key)));
    } else return undefined;
  }
  return order;
}

/** True when `list` keeps the items it shares with `base` in base's order. */
function keepsOrder(base: readonly string[], list: readonly string[]): boolean {
  const shared = new Set(list);
  const before = base.filter((key) => shared.has(key));
  const kept = new Set(base);
  return list.filter((key) => kept.has(key)).every((key, i) => key === before[i]);
}

/**
 * The order of a merged list of items known by an identity field (`kept`:
 * the merged items' keys): the order of the side that reordered the items,
 * or the stored one's when neither did, with the other side's added items
 * each put after the item it follows there (after items the first side
 * added at that place). Both sides reordering differently is undefined, a
 * conflict. A removal and an addition beside it never overlap here, as
 * they do for lines.
 */
function orderByIdentity(
  base: readonly string[],
  stored: readonly string[],
  ours: readonly string[],
  kept: ReadonlySet<string>,
): string[] | undefined {
  const [oursMoved, storedMoved] = [!keepsOrder(base, ours), !keepsOrder(base, stored)];
  if (oursMoved && storedMoved && !keepsOrder(stored, ours)) return undefined;
  const [first, second] = oursMoved ? [ours, stored] : [stored, ours];
  const order = first.filter((key) => kept.has(key));
  const fromBase = new Set(base);
  const placed = new Set(order);
  second.forEach((key, i) => {
    if (placed.has(key) || !kept.has(key)) return;
    let before = i - 1;
    while (before >= 0 && !placed.has(second[before]!)) before--;
    let at = before < 0 ? 0 : order.indexOf(second[before]!) + 1;
    while (at < order.length && !fromBase.has(order[at]!) && !second.includes(order[at]!)) at++;
    order.splice(at, 0, key);
    placed.add(key);
  });
  return order;
}

/**
 * A config list both sides changed (NodeUpdate.base: another window stored
 * its edit meanwhile), merged item by item, or undefined when the two
 * changes overlap. Items known by an identity field (IDENTITY_FIELDS) are
 * matched by it, so two windows editing two return values, or one adding an
 * argument while the other edits another, both keep theirs; an item both
 * changed merges field by field. Items without one (a condition's rules, an
 * agent's tools) are matched by their whole value: an edited item is one
 * removed and another added in its place, and edits of neighbouring items
 * overlap, as neighbouring lines do in git.
 */
export function mergeList(
  base: readonly unknown[],
  stored: readonly unknown[],
  ours: readonly unknown[],
): unknown[] | undefined {
  const field = identityField([base, stored, ours]);
  const [b, t, o] = [base, stored, ours].map((list) => keyed(list, field)) as [Keyed, Keyed, Keyed];
  const merged = new Map<string, unknown>();
  for (const key of new Set([...b.keys(), ...t.keys(), ...o.keys()])) {
    const item = mergeItem(b.get(key), t.get(key), o.get(key));
    if (item === CONFLICT) return undefined;
    if (item !== undefined) merged.set(key, item);
  }
  const sequences = [[...b.keys()], [...t.keys()], [...o.keys()]] as const;
  const order = field ? orderByIdentity(...sequences, new Set(merged.keys())) : orderByPlace(...sequences);
  // The order and the items agree (a diff3 order may differ where an item came back on one side).
  if (!order || order.length !== merged.size || !order.every((key) => merged.has(key))) return undefined;
  return order.map((key) => merged.get(key));
}

type Keyed = Map<string, unknown>;

/**
 * A list's items by key: the identity field's value, or the item's data
 * (key order not counting) with how many equal items came before it, so
 * that two equal rules stay two.
 */
function keyed(list: readonly unknown[], field: string | undefined): Keyed {
  const seen = new Map<string, number>();
  return new Map(
    list.map((item) => {
      if (field) return [String((item as Record<string, unknown>)[field]), item];
      const data = dataKey(item);
      const count = seen.get(data) ?? 0;
      seen.set(data, count + 1);
      return [`${count}:${data}`, item];
    }),
  );
}

/**
 * A setting both sides changed differently, merged by its parts: a list
 * item by item (mergeList), a text of several lines line by line
 * (mergeLines). Undefined when it has no such parts or the two changes
 * overlap: then it is one value both changed. The one rule the node merge,
 * the flow fields' merge and undo share.
 */
export function mergeParts(base: unknown, stored: unknown, ours: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(stored) && Array.isArray(ours)) return mergeList(base, stored, ours);
  return mergeLines(base, stored, ours);
}
