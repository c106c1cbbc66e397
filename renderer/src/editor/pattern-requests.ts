import { findInFlow, type FindMatch, type FindOptions } from '../../../core/editing/find';
import { replaceInFlow, type Replacement, type ReplaceOptions } from '../../../core/editing/replace';
import type { Flow } from '../../../core/model/flow';
import type { FlowDelta } from '../../../core/editing/flow-delta';
import { nodeRegistry } from '../../../core/nodes/registry';

/** A node type as Find names it: the type's label, or the type itself when unknown. */
export const typeLabel = (type: string): string => nodeRegistry.get(type)?.label ?? type;

/** What Find or Replace asks of a regular expression over a flow. */
export type PatternWork =
  | { op: 'find'; words: string; options: FindOptions }
  | { op: 'replace'; words: string; replacement: string; options: ReplaceOptions };

/**
 * As posted to the pattern worker: the flow when the worker has none, what
 * changed in it since the one the worker has (a delta), or neither when it
 * is the same flow.
 */
export type PatternRequest = PatternWork & { id: number; flow?: Flow; delta?: FlowDelta };

export type PatternResponse = { id: number; value: FindMatch[] | Replacement } | { id: number; error: string };

/** The work done on a flow: in the pattern worker, or on the page where it cannot have one. */
export function doPatternWork(flow: Flow, work: PatternWork): FindMatch[] | Replacement {
  return work.op === 'find'
    ? findInFlow(flow, work.words, typeLabel, work.options)
    : replaceInFlow(flow, work.words, work.replacement, work.options);
}
