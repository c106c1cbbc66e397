import {
  backAs,
  putBackPlan,
  type PutBackPlan,
  type PutBackText,
  type UnsavedText,
} from '../../../core/editing/unsaved-text';
import type { FlowNode } from '../../../core/model/flow';
import { CopyButton } from '../connect/copy-button';
import { useAppStore } from '../store/app-store';
import { ProblemList } from './problems-panel';

/**
 * What the host refused and why (a run that cannot start, an edit that was
 * not saved), above the canvas until it is closed: a toast would vanish with
 * the reasons. A refused edit's text is shown with it, to be copied back or
 * put back in its place: merged into what the other window stored there
 * when the text it started from is known, else over it.
 */
export function RefusalBanner() {
  const refusal = useAppStore((s) => s.refusal);
  if (!refusal) return null;
  return (
    <section className="refusal" role="alert" aria-label="Refused">
      <header>
        <strong>{refusal.title}</strong>
        <button className="small" onClick={() => useAppStore.getState().showRefusal(undefined)}>
          Close
        </button>
      </header>
      {refusal.problems.length > 0 && <ProblemList problems={refusal.problems} label="Why" />}
      {refusal.unsaved && refusal.unsaved.length > 0 && <UnsavedList unsaved={refusal.unsaved} />}
    </section>
  );
}

/**
 * What the toast says a Put back did: a text, with what became of the change
 * made elsewhere to it (`text`, see mergeNote); a node added back (`back`, the id it
 * took) is named, with that id if its own was taken; the nodes it reads that
 * came back with it (`brought`: each as the person had it, and the id it took), and the person's
 * nodes whose references now follow it (`updated`).
 */
function putBackMessage(
  item: UnsavedText,
  text: PutBackText | undefined,
  back: string | undefined,
  brought: readonly { was: FlowNode; now: string }[],
  updated: readonly string[],
): string {
  const { where, added } = item;
  if (!added) return `Put back: ${where}${mergeNote(item, text)}`;
  // By id: the references that read them name them so.
  const along = brought
    .map(({ was, now }) => `; ${was.id}, which it reads, is back too${now === was.id ? '' : `, as ${now}`}`)
    .join('');
  const { id, label } = added.node;
  if (!back || back === id) return `Put back ${label || id}, with its settings and connections${along}`;
  const following =
    updated.length > 0 ? `; ${updated.join(', ')} now read${updated.length === 1 ? 's' : ''} it as ${back}` : '';
  return `Put back ${label || id} as ${back}: ${id} is a node added elsewhere${along}${following}`;
}

/** What Put back does with the change made elsewhere to the same text: nothing to do with it, kept beside the person's, or replaced. */
function mergeOf({ text: typed }: UnsavedText, text: PutBackText | undefined): 'none' | 'kept' | 'partly' | 'replaced' {
  if (!text?.merged) return 'none';
  if (text.text === typed) return 'replaced';
  return text.replaced === 0 ? 'kept' : 'partly';
}

/** The toast's words on the change made elsewhere (see mergeOf). */
function mergeNote(item: UnsavedText, text: PutBackText | undefined): string {
  switch (mergeOf(item, text)) {
    case 'none':
      return '';
    case 'replaced':
      return ', over the change made elsewhere';
    case 'kept':
      return ', merged with the change made elsewhere';
    case 'partly': {
      const places = text?.replaced === 1 ? '1 place' : `${text?.replaced} places`;
      return `, merged with the change made elsewhere; where you both changed the same lines, yours is kept (${places})`;
    }
  }
}

/** The Put back button's tooltip: what clicking it does to what is there now. */
function putBackTitle(item: UnsavedText, text: PutBackText | undefined): string {
  if (item.added) return 'Adds the node back as you had it, with all its settings and connections';
  switch (mergeOf(item, text)) {
    case 'kept':
      return 'Puts your change into what is there now, keeping the change made elsewhere';
    case 'partly':
      return 'Puts your change into what is there now, keeping the change made elsewhere except where you both changed the same lines';
    default:
      return 'Replaces what is there now with this text';
  }
}

function UnsavedList({ unsaved }: { unsaved: readonly UnsavedText[] }) {
  const flow = useAppStore((s) => s.flow);
  const putBack = (item: UnsavedText, { changes, text }: PutBackPlan) => {
    const before = useAppStore.getState().refusal?.unsaved ?? [];
    useAppStore.getState().edit(changes);
    const state = useAppStore.getState();
    const { flow: after, refusal } = state;
    // The node put back for the item is the edit's last; any before it are nodes it reads, brought along.
    const back = changes.addNodes?.at(-1)?.id;
    // A node put back is selected, as a pasted one is: drawn on top, its settings in the inspector.
    if (back) state.setSelection([back], []);
    // A node put back takes every text listed for it, and for the nodes that came back with it.
    const now = new Map(before.map((other) => [other, after && backAs(after, other)]));
    const left = refusal?.unsaved?.filter((other) => other !== item && now.get(other) === undefined) ?? [];
    // The last text put back settles what was refused: its reason would read as still wrong. The toast says what was done.
    state.showRefusal(refusal && left.length > 0 ? { ...refusal, unsaved: left } : undefined);
    const brought = new Map<string, { was: FlowNode; now: string }>();
    for (const [other, id] of now) {
      const node = other.added?.node;
      if (node && id !== undefined && node.id !== item.added?.node.id) brought.set(node.id, { was: node, now: id });
    }
    state.notify(
      putBackMessage(item, text, back, [...brought.values()], changes.updateNodes?.map((update) => update.id) ?? []),
    );
  };
  return (
    <ul className="unsaved-text" aria-label="Not saved">
      {unsaved.map((item) => {
        const { where, text } = item;
        // Only where the place is still there (the other window may have removed the node or the note).
        const plan = flow ? putBackPlan(flow, item, unsaved) : undefined;
        return (
          // Keyed by place, not by `where`: two nodes may share a label.
          <li key={JSON.stringify(item.place)}>
            {text === '' ? (
              // A node added with nothing typed in it: there is no text to copy, only the node to put back.
              <span aria-label={`Not saved: ${where}`}>{where}</span>
            ) : (
              <>
                <label>
                  <span>{where}</span>
                  {/* Read-only, not plain text: it can be selected whole and copied by hand where the clipboard is refused. */}
                  <textarea
                    readOnly
                    value={text}
                    rows={Math.min(6, text.split('\n').length)}
                    aria-label={`Not saved: ${where}`}
                  />
                </label>
                <CopyButton text={text} />
              </>
            )}
            {plan && (
              <button title={putBackTitle(item, plan.text)} onClick={() => putBack(item, plan)}>
                Put back
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
