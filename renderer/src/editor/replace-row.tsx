import { useEffect, useState, type KeyboardEvent } from 'react';
import type { FindMatch, FindOptions } from '../../../core/editing/find';
import type { Replacement, ReplaceOptions, ReplaceTarget } from '../../../core/editing/replace';
import type { Flow } from '../../../core/model/flow';
import { counted } from '../counted';
import { useAppStore } from '../store/app-store';
import { readOnlyShown } from '../store/versions-slice';
import { FindToggle, switchToggleOfKey } from './find-bar';
import { patternRunner } from './pattern-runner';

/** How many nodes left as they were are named in the report; the rest are counted. */
const NAMED = 3;
/** What a regular expression's replacement may hold (core/editing/replacement-text.ts, as in VS Code). */
const REGEX_HINT =
  '$1…$99: the groups; $<name>: a named one; $& or $0: the whole match; $$: a dollar sign. ' +
  '\\n: a line break; \\t: a tab; \\u \\l: the next group with a capital or small first letter; \\U \\L: all of it';

/** What a replacement did, in words: how many, where, and what was left as it was and why. */
function report(result: Replacement, flow: Flow): string {
  const where = [
    result.nodes > 0 ? counted(result.nodes, 'node') : '',
    result.notes > 0 ? counted(result.notes, 'note') : '',
  ].filter(Boolean);
  const done =
    result.count === 0 ? 'Nothing replaced.' : `Replaced ${counted(result.count, 'time')} in ${where.join(' and ')}.`;
  if (result.leftAlone.length === 0) return done;
  const name = (kind: string, id: string) =>
    kind === 'note' ? 'a sticky note' : `"${flow.nodes.find((n) => n.id === id)?.label || id}"`;
  const named = result.leftAlone.slice(0, NAMED).map((left) => `${name(left.kind, left.id)}: ${left.reason}`);
  const more = result.leftAlone.length - NAMED;
  return `${done} Left as ${result.leftAlone.length === 1 ? 'it was' : 'they were'}: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

/**
 * Find's Replace row (Ctrl+H): the words found replaced in the current match
 * (Replace, then on to the next) or everywhere (Replace all), each one edit
 * that Undo takes back. What is replaced and what is not (ids, types,
 * settings that are not text) is core/editing/replace.ts; the row says what
 * was left as it was and why, so nothing found is skipped without a word.
 * The words match as Find's toggles say; AB (Alt+P) keeps their capitals.
 */
export function ReplaceRow({
  words,
  options,
  problem,
  match,
  onReplaced,
}: {
  words: string;
  options: FindOptions;
  /** Why the words cannot be looked for (see patternProblem): Find's count says so, and nothing is replaced. */
  problem: string | undefined;
  match: FindMatch | undefined;
  /** After a replacement in `target` (Replace) or everywhere (Replace all, undefined). */
  onReplaced: (target: ReplaceTarget | undefined) => void;
}) {
  const replacement = useAppStore((s) => s.find.replacement);
  const [said, setSaid] = useState<string>();
  const shown = useAppStore(readOnlyShown);
  // A report is about the words it was made for.
  useEffect(() => setSaid(undefined), [words, options]);

  const replace = async (target: ReplaceTarget | undefined) => {
    if (shown || !words.trim() || problem) return;
    const all: ReplaceOptions = { ...options, only: target, preserveCase: useAppStore.getState().find.preserveCase };
    // The draft: a past run or a version on the canvas is read-only (the buttons are off then).
    let flow = useAppStore.getState().flow;
    let result: Replacement | undefined;
    try {
      // A regular expression runs in the worker (pattern-runner.ts); computed again if the draft
      // changed meanwhile, so that the edit is made on the flow it was computed on.
      while (flow) {
        result = await patternRunner.replace(flow, words, replacement, all);
        const now = useAppStore.getState().flow;
        if (now === flow) break;
        flow = now;
      }
    } catch (error) {
      return setSaid(`Nothing was replaced: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!flow || !result) return;
    if (result.changes) useAppStore.getState().edit(result.changes);
    // Nodes are named as they are now (a label may have just changed).
    setSaid(report(result, useAppStore.getState().flow ?? flow));
    onReplaced(target);
  };
  const here = match && { kind: match.kind, id: match.id };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (switchToggleOfKey(event, ['matchCase', 'wholeWord', 'regex', 'preserveCase'])) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (event.ctrlKey || event.metaKey || event.altKey) void replace(undefined);
      else if (here) void replace(here);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      useAppStore.getState().closeFind();
    }
  };
  const why = shown ? `This is ${shown}, shown read-only: go back to the draft to edit` : undefined;

  return (
    <>
      <div className="find-row">
        <input
          type="text"
          aria-label="Replace with"
          placeholder={options.regex ? 'Replace with… ($1: a group)' : 'Replace with…'}
          value={replacement}
          disabled={shown !== undefined}
          title={why ?? (options.regex ? REGEX_HINT : undefined)}
          onChange={(e) => useAppStore.getState().setFind({ replacement: e.target.value })}
          onKeyDown={onKeyDown}
        />
        <FindToggle toggle="preserveCase" />
        <button
          className="small"
          title={why ?? 'Replace in this match, then go to the next (Enter)'}
          disabled={shown !== undefined || !here}
          onClick={() => here && void replace(here)}
        >
          Replace
        </button>
        <button
          className="small"
          title={why ?? 'Replace in every match, as one edit (Ctrl+Enter)'}
          disabled={shown !== undefined || !words.trim() || problem !== undefined}
          onClick={() => void replace(undefined)}
        >
          Replace all
        </button>
      </div>
      {said && (
        <p className="find-where replace-report" role="status" data-testid="replace-report">
          {said}
        </p>
      )}
    </>
  );
}
