/**
 * Node ids appear in references (`{{nodes.<id>.output}}`), so they are short,
 * readable slugs rather than UUIDs.
 */
export const NODE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
