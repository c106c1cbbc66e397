import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { findInFlow, type FindMatch } from '../../../core/editing/find';
import type { Flow } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { flowOnCanvas } from '../store/versions-slice';
import { noteRfId } from './note-ids';
import { ReplaceRow } from './replace-row';
import type { ReplaceTarget } from '../../../core/editing/replace';
import { useShowNode } from './use-show-node';

const typeLabel = (type: string) => nodeRegistry.get(type)?.label ?? type;

/** What the match is, for the line under the field: the node's label (or id), or "Note". */
function matchTitle(flow: Flow, match: FindMatch): string {
  if (match.kind === 'note') return 'Sticky note';
  const node = flow.nodes.find((n) => n.id === match.id);
  return node?.label || match.id;
}

/**
 * Find on the canvas (Ctrl+F): the nodes and notes whose label, id, type,
 * settings or text hold the words, one after the other. Each match is
 * selected and brought into view, also far off screen on a big flow, where
 * the browser's own find sees nothing (cards out of view are not drawn).
 * Enter goes to the next, Shift+Enter to the previous, Escape closes.
 * Ctrl+H (or the ⇄ button) shows the Replace row (replace-row.tsx).
 */
export function FindBar() {
  const isOpen = useAppStore((s) => s.isFindOpen);
  return isOpen ? <FindBox /> : null;
}

function FindBox() {
  const flow = useAppStore(flowOnCanvas);
  const asked = useAppStore((s) => s.findAsked);
  const isReplaceOpen = useAppStore((s) => s.isReplaceOpen);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const showNode = useShowNode();
  // Typing stays quick on a 10,000-node flow: the search follows the keys when it can.
  const words = useDeferredValue(query);
  const matches = useMemo(() => (flow ? findInFlow(flow, words, typeLabel) : []), [flow, words]);
  const current = matches.length > 0 ? Math.min(index, matches.length - 1) : -1;

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [asked]);

  const show = (match: FindMatch | undefined) => {
    if (match) showNode(match.kind === 'note' ? noteRfId(match.id) : match.id);
  };
  // New words: to their first match at once, as a browser's find does.
  useEffect(() => {
    setIndex(0);
    show(matches[0]);
    // Only when the words change; an edit of the flow meanwhile keeps the place.
  }, [words]);

  const step = (by: number) => {
    if (matches.length === 0) return;
    const next = (current + by + matches.length) % matches.length;
    setIndex(next);
    show(matches[next]);
  };
  // After Replace, on to the match after the one replaced in (it may be gone from the list, or still there).
  const afterReplace = (target: ReplaceTarget | undefined) => {
    const now = useAppStore.getState().flow;
    if (!target || !now) return setIndex(0);
    const after = findInFlow(now, words, typeLabel);
    const isSame = (m: FindMatch, other: { kind: string; id: string }) => m.kind === other.kind && m.id === other.id;
    const following = [...matches.slice(current + 1), ...matches.slice(0, current)];
    const next = following.map((m) => after.findIndex((a) => isSame(a, m))).find((at) => at >= 0);
    if (next === undefined) return setIndex(0);
    setIndex(next);
    show(after[next]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      // Handled here: the editor's Escape would clear the selection the search just made.
      event.preventDefault();
      useAppStore.getState().closeFind();
    }
  };

  const match = matches[current];
  return (
    <section className="find-bar" role="search" aria-label="Find on the canvas">
      <div className="find-row">
        <button
          className="small"
          aria-label="Toggle Replace"
          aria-expanded={isReplaceOpen}
          title={isReplaceOpen ? 'Hide Replace' : 'Replace (Ctrl+H)'}
          onClick={() => useAppStore.getState().setReplaceOpen(!isReplaceOpen)}
        >
          ⇄
        </button>
        <input
          ref={input}
          type="search"
          aria-label="Find nodes and notes"
          placeholder="Find a node: label, id, type, prompt…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <span className="find-count muted" aria-live="polite">
          {words.trim() === '' ? '' : matches.length === 0 ? 'No matches' : `${current + 1} of ${matches.length}`}
        </span>
        <button className="small" aria-label="Previous match" title="Previous (Shift+Enter)" onClick={() => step(-1)}>
          ↑
        </button>
        <button className="small" aria-label="Next match" title="Next (Enter)" onClick={() => step(1)}>
          ↓
        </button>
        <button
          className="small"
          aria-label="Close find"
          title="Close (Escape)"
          onClick={() => useAppStore.getState().closeFind()}
        >
          ×
        </button>
      </div>
      {isReplaceOpen && <ReplaceRow words={words} match={match} onReplaced={afterReplace} />}
      {match && flow && (
        <p className="find-where" data-testid="find-where">
          <strong>{matchTitle(flow, match)}</strong> <span className="muted">{match.field}:</span> {match.excerpt}
        </p>
      )}
    </section>
  );
}
