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
export const sameData = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a ?? null, sortedKeys) === JSON.stringify(b ?? null, sortedKeys);
