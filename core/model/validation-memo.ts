import type { FlowEdge, FlowNode } from './flow';
import type { TemplateSegment } from './template';

/**
 * What validateFlow worked out for the parts of a flow that have not changed
 * since it last validated them, for a caller that validates the same flow
 * again after each edit: the editor, where a 10,000-node flow took about
 * 300 ms to check from scratch after every pause in typing. Edits replace the
 * nodes and edges they change and keep the others' objects (applyChangeSet),
 * so the parts are known by their objects: a changed node is a new object
 * and is checked afresh. Whatever concerns the whole graph (ids, ports,
 * cycles, what is upstream) is checked every time.
 *
 * Only for flows nobody changes in place, and with one node catalogue.
 */
export interface ValidationMemo {
  /** A node as given → the node parsed, its config parsed and migrated (nodes that parsed cleanly only). */
  readonly nodes: WeakMap<object, FlowNode>;
  /** An edge as given → the edge parsed (edges that parsed cleanly only). */
  readonly edges: WeakMap<object, FlowEdge>;
  /** A parsed config (of a node above) → its templates' segments, field by field. */
  readonly templates: WeakMap<object, readonly { field: string; segments: TemplateSegment[] }[]>;
}

export function createValidationMemo(): ValidationMemo {
  return { nodes: new WeakMap(), edges: new WeakMap(), templates: new WeakMap() };
}
