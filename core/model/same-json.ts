/**
 * True when two values would be written as the same JSON, undefined counting
 * as null: what the editor and the edits compare flows, notes and answers by.
 * Key order counts, as in the stored JSON.
 */
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Objects with their keys sorted, so that key order does not count (see sameData). */
const sortedKeys = (_key: string, value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * True when two values hold the same data, whatever the order of their keys
 * (undefined counting as null): what a merge of two windows' edits compares
 * by, where a value read back from the database and one the editor built
 * may list the same keys in another order.
 */
export const sameData = (a: unknown, b: unknown): boolean => dataKey(a) === dataKey(b);

/** A value's JSON with its objects' keys sorted: equal for values sameData finds the same. */
export const dataKey = (value: unknown): string => JSON.stringify(value ?? null, sortedKeys);

/** `from`'s values of `keys` (undefined where it has none): what an edit of those keys started from. */
export const valuesAt = (from: object, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((key) => [key, (from as Record<string, unknown>)[key]]));

/**
 * `onto` with every key whose value differs between `from` and `to` (by
 * sameData) set as `to` has it, or removed where `to` has none: one side's
 * changes laid on another object (a note's fields in a merge, an undo step's
 * config keys on the config shown now).
 */
export function withChangedKeys<T extends object>(onto: T, from: T, to: T): T {
  const result = { ...(onto as Record<string, unknown>) };
  const [before, after] = [from as Record<string, unknown>, to as Record<string, unknown>];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (sameData(after[key], before[key])) continue;
    if (after[key] === undefined) delete result[key];
    else result[key] = after[key];
  }
  return result as T;
}
