import { useRef } from 'react';
import { referencesFor, sameReferences, type ReferenceOption } from '../../../core/editing/references';
import type { KnownOutput } from '../../../core/editing/output-fields';
import type { Flow } from '../../../core/model/flow';

const NONE: ReferenceOption[] = [];

/**
 * The references the node can use (referencesFor), worked out again only when
 * something they come from changed: not when cards were only moved.
 */
export function useReferences(
  flow: Flow | undefined,
  nodeId: string | undefined,
  known: (nodeId: string) => KnownOutput,
  secrets: readonly string[],
): ReferenceOption[] {
  const kept = useRef<{
    flow: Flow;
    nodeId: string;
    known: typeof known;
    secrets: readonly string[];
    options: ReferenceOption[];
  }>(undefined);
  if (!flow || nodeId === undefined) return NONE;
  const last = kept.current;
  if (
    last &&
    last.nodeId === nodeId &&
    last.known === known &&
    last.secrets === secrets &&
    sameReferences(last.flow, flow)
  ) {
    // The flow shown now, so that the next comparison is with it.
    last.flow = flow;
    return last.options;
  }
  const options = referencesFor(flow, nodeId, known, secrets);
  kept.current = { flow, nodeId, known, secrets, options };
  return options;
}
