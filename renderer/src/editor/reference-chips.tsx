import { useState, type RefObject } from 'react';
import type { ReferenceOption } from '../../../core/editing/references';
import { insertReference } from './reference-target';

/** How many nodes' chips show before "more". */
const NODE_CHIPS_SHOWN = 12;

/**
 * The inspector's Insert chips: a button for each value this node's templates
 * may use (the flow's parameters, each node upstream), putting its reference
 * where the cursor is. In a big flow only the nearest nodes' chips show at
 * first (fewest edges back), the parameters always, and the rest behind a
 * "more" button. A node 5,000 deep in a chain had 5,000 chips: buttons to tab
 * past, and on a 10,000-node flow about 40 ms of building the page every time
 * such a card was selected, a drag's start among them. Completion after `{{`
 * in a field still offers every one.
 */
export function ReferenceChips({
  references,
  panel,
}: {
  references: readonly ReferenceOption[];
  /** The inspector, where the chip looks for the field to insert into. */
  panel: RefObject<HTMLElement | null>;
}) {
  const [isAllShown, setAllShown] = useState(false);
  const chips = references.filter((r) => !r.isField);
  if (chips.length === 0) return null;
  const shown = isAllShown ? chips : nearest(chips, NODE_CHIPS_SHOWN);
  return (
    <div className="reference-chips" role="group" aria-label="Insert a reference">
      <span className="field-label">Insert</span>
      {shown.map((r) => (
        <button
          key={r.label}
          className="chip"
          title={`Insert {{${r.label}}} where the cursor is (${r.detail})`}
          onClick={() => insertReference(r.label, panel.current)}
        >
          {r.label}
        </button>
      ))}
      {shown.length < chips.length && (
        <button className="link" title="Show a chip for every node upstream" onClick={() => setAllShown(true)}>
          {(chips.length - shown.length).toLocaleString('en')} more upstream…
        </button>
      )}
    </div>
  );
}

/**
 * The chips of no node (parameters, secrets, the item) and those of the
 * `count` nearest nodes (fewest edges back; the same, in the flow's order),
 * in the order given.
 */
function nearest(chips: readonly ReferenceOption[], count: number): readonly ReferenceOption[] {
  const ofNodes = chips.filter((c) => c.hops !== undefined);
  if (ofNodes.length <= count) return chips;
  // A stable sort: among nodes as near, the flow's order decides.
  const kept = new Set(ofNodes.sort((a, b) => (a.hops as number) - (b.hops as number)).slice(0, count));
  return chips.filter((c) => c.hops === undefined || kept.has(c));
}
