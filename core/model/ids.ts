/** Branded ids: a FlowId cannot be passed where a NodeId is expected. */
export type FlowId = string & { readonly __brand: 'FlowId' };
export type NodeId = string & { readonly __brand: 'NodeId' };
export type EdgeId = string & { readonly __brand: 'EdgeId' };
export type RunId = string & { readonly __brand: 'RunId' };

/**
 * Node ids appear in references (`{{nodes.<id>.output}}`), so they are short,
 * readable slugs rather than UUIDs.
 */
export const NODE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
