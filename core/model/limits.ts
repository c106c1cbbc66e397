/**
 * Size limits that must agree wherever a flow enters or leaves Flowbench: a
 * file exported can always be imported again.
 */

/** The largest flow file imported (CLI, editor, API), and the largest one exported. 5,000-node flows take about 2 MB. */
export const MAX_FLOW_FILE_BYTES = 10 * 1024 * 1024;

/** How deep JSON in a flow may nest; deeper documents are refused before anything recurses into them. */
export const MAX_NESTING_DEPTH = 64;

/** The longest name of a value a node reads (a code node's `values.<name>`, an MCP tool's argument). */
export const MAX_VALUE_NAME_CHARS = 128;

export const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * True when a JSON value nests deeper than `max` arrays and objects. Walks
 * with its own stack, so a document nested 100,000 levels deep (which would
 * overflow any recursive parser or schema) is measured safely.
 */
export function isNestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
