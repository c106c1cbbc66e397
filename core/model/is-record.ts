/** A plain JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `table[key]` for a key that comes from outside (a file, a header): only the
 * table's own entries. A plain lookup gives a key such as "constructor" or
 * "toString" what every object inherits, a function, which was then used as
 * an entry (an n8n node of type "constructor" failed the import with a TypeError).
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
