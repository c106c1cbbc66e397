/**
 * Node ids appear in references (`{{nodes.<id>.output}}`), so they are short,
 * readable slugs rather than UUIDs.
 */
export const NODE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
/** Names of the MCP server's own tools: no flow may be published under them. */
export const BUILT_IN_TOOL_NAMES = {
  list: 'flows_list',
  execute: 'flows_execute',
  start: 'flows_start',
  result: 'flows_result',
} as const;
export const isBuiltInToolName = (name: string): boolean =>
  (Object.values(BUILT_IN_TOOL_NAMES) as string[]).includes(name);

/**
 * Why no flow can be offered under `name` (validation's problem, and the
 * editor's note under its Tool name field), or undefined when one can. That
 * another flow uses it is the store's to say.
 */
export function toolNameProblem(name: string): string | undefined {
  if (!TOOL_NAME_PATTERN.test(name)) return `tool name "${name}" must be 1–128 letters, digits, _ . or -`;
  if (isBuiltInToolName(name))
    return `the tool name "${name}" is reserved for Flowbench's own MCP tool; choose another`;
  return undefined;
}
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
