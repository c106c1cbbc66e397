import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { patternProblem, type FindMatch, type FindOptions } from '../../../core/editing/find';
import type { Flow } from '../../../core/model/flow';
import { useAppStore } from '../store/app-store';
import type { FindSettings } from '../store/ui-slice';
import { flowOnCanvas } from '../store/versions-slice';
import { noteRfId } from './note-ids';
import { ReplaceRow } from './replace-row';
import type { ReplaceTarget } from '../../../core/editing/replace';
import { useShowNode } from './use-show-node';
import { useFindMatches } from './use-find-matches';
import { patternRunner } from './pattern-runner';

/** What the match is, for the line under the field: the node's label (or id), or "Note". */
function matchTitle(flow: Flow, match: FindMatch): string {
  if (match.kind === 'note') return 'Sticky note';
  const node = flow.nodes.find((n) => n.id === match.id);
  return node?.label || match.id;
}

/** Find's toggles, as code editors show them, with their keys (Alt+letter; Option on a Mac). */
export const FIND_TOGGLES = {
  matchCase: { text: 'Aa', name: 'Match case', code: 'KeyC', key: 'Alt+C' },
  wholeWord: { text: 'ab', name: 'Whole word', code: 'KeyW', key: 'Alt+W' },
  regex: { text: '.*', name: 'Regular expression', code: 'KeyR', key: 'Alt+R' },
  preserveCase: { text: 'AB', name: 'Preserve case', code: 'KeyP', key: 'Alt+P' },
} as const satisfies Record<Toggle, { text: string; name: string; code: string; key: string }>;

type Toggle = keyof Pick<FindSettings, 'matchCase' | 'wholeWord' | 'regex' | 'preserveCase'>;

/**
 * Switches the toggle an Alt+letter key press in Find's fields is for, if
 * any of `toggles`; true when it did. By key position: Option+C types ç on a Mac.
 */
export function switchToggleOfKey(event: KeyboardEvent, toggles: readonly Toggle[]): boolean {
  if (!event.altKey || event.ctrlKey || event.metaKey) return false;
  const toggle = toggles.find((one) => FIND_TOGGLES[one].code === event.code);
  if (!toggle) return false;
  event.preventDefault();
  flip(toggle);
  return true;
}

/** Turns a toggle on or off. */
function flip(toggle: Toggle): void {
  const state = useAppStore.getState();
  state.setFind({ [toggle]: !state.find[toggle] });
}

/** One of Find's toggles: a small button that stays pressed while on. */
export function FindToggle({ toggle }: { toggle: Toggle }) {
  const isOn = useAppStore((s) => s.find[toggle]);
  const { text, name, key } = FIND_TOGGLES[toggle];
  return (
    <button
      className={`small find-toggle${toggle === 'wholeWord' ? ' whole-word' : ''}`}
      aria-label={name}
      aria-pressed={isOn}
      title={`${name} (${key})`}
      onClick={() => flip(toggle)}
    >
      {text}
    </button>
  );
}

/**
 * Find on the canvas (Ctrl+F): the nodes and notes whose label, id, type,
 * settings or text hold the words, one after the other. Each match is
 * selected and brought into view, also far off screen on a big flow, where
 * the browser's own find sees nothing (cards out of view are not drawn).
 * Enter goes to the next, Shift+Enter to the previous, Escape closes.
 * Aa, ab and .* (Alt+C, Alt+W, Alt+R) match case, whole words only and a
 * regular expression (one not valid is said, not searched). Ctrl+H (or the
 * ⇄ button) shows the Replace row (replace-row.tsx). The words and toggles
 * stay while Find is closed (ui-slice's `find`).
 */
export function FindBar() {
  const isOpen = useAppStore((s) => s.isFindOpen);
  return isOpen ? <FindBox /> : null;
}

function FindBox() {
  const flow = useAppStore(flowOnCanvas);
  const asked = useAppStore((s) => s.findAsked);
  const isReplaceOpen = useAppStore((s) => s.isReplaceOpen);
  const query = useAppStore((s) => s.find.words);
  const matchCase = useAppStore((s) => s.find.matchCase);
  const wholeWord = useAppStore((s) => s.find.wholeWord);
  const regex = useAppStore((s) => s.find.regex);
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const showNode = useShowNode();
  // Typing stays quick on a 10,000-node flow: the search follows the keys when it can.
  const words = useDeferredValue(query);
  const options: FindOptions = useMemo(() => ({ matchCase, wholeWord, regex }), [matchCase, wholeWord, regex]);
  // A regular expression being typed is often not valid yet (`(`): said beside the field, not thrown.
  const problem = useMemo(() => patternProblem(words, options), [words, options]);
  // A regular expression runs in a worker, stopped when too slow (`stopped` says why).
  const { matches, searchedFor, stopped, unguarded } = useFindMatches(flow, words, options, problem);
  const current = matches.length > 0 ? Math.min(index, matches.length - 1) : -1;

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [asked]);
  // Closed: the worker of regular expressions goes, with its copy of the flow.
  useEffect(() => () => patternRunner.release(), []);

  const show = (match: FindMatch | undefined) => {
    if (match) showNode(match.kind === 'note' ? noteRfId(match.id) : match.id);
  };
  // New words or toggles: to their first match as soon as they are found, as a browser's find does.
  useEffect(() => {
    setIndex(0);
    show(matches[0]);
    // Only when what is looked for changes; an edit of the flow meanwhile keeps the place.
  }, [searchedFor]);

  const step = (by: number) => {
    if (matches.length === 0) return;
    const next = (current + by + matches.length) % matches.length;
    setIndex(next);
    show(matches[next]);
  };
  // After Replace, on to the match after the one replaced in (it may be gone from the list, or still there).
  const afterReplace = async (target: ReplaceTarget | undefined) => {
    const now = useAppStore.getState().flow;
    if (!target || !now) return setIndex(0);
    const after = await patternRunner.find(now, words, options).catch(() => undefined);
    if (!after) return setIndex(0);
    const isSame = (m: FindMatch, other: { kind: string; id: string }) => m.kind === other.kind && m.id === other.id;
    const following = [...matches.slice(current + 1), ...matches.slice(0, current)];
    const next = following.map((m) => after.findIndex((a) => isSame(a, m))).find((at) => at >= 0);
    if (next === undefined) return setIndex(0);
    setIndex(next);
    show(after[next]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (switchToggleOfKey(event, ['matchCase', 'wholeWord', 'regex'])) return;
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
          onChange={(e) => useAppStore.getState().setFind({ words: e.target.value })}
          onKeyDown={onKeyDown}
        />
        <FindToggle toggle="matchCase" />
        <FindToggle toggle="wholeWord" />
        <FindToggle toggle="regex" />
        <span
          className={`find-count ${problem || stopped ? 'invalid' : 'muted'}`}
          aria-live="polite"
          title={problem ?? stopped}
        >
          {words.trim() === ''
            ? ''
            : problem
              ? 'Not valid'
              : stopped
                ? 'Too slow'
                : matches.length === 0
                  ? 'No matches'
                  : `${current + 1} of ${matches.length}`}
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
      {isReplaceOpen && (
        <ReplaceRow
          words={words}
          options={options}
          problem={problem ?? stopped}
          match={match}
          onReplaced={(target) => void afterReplace(target)}
        />
      )}
      {unguarded && (
        <p className="find-where find-note muted" role="note">
          This regular expression ran on the page with no time limit: Find&apos;s worker could not start here. One that
          backtracks on a long text can freeze the editor.
        </p>
      )}
      {match && flow && (
        <p className="find-where" data-testid="find-where">
          <strong>{matchTitle(flow, match)}</strong> <span className="muted">{match.field}:</span> {match.excerpt}
        </p>
      )}
    </section>
  );
}
