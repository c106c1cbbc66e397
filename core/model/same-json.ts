/**
 * True when two values would be written as the same JSON, undefined counting
 * as null: what the editor and the edits compare flows, notes and answers by.
 * Key order counts, as in the stored JSON.
 */
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
