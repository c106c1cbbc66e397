import { useEffect, useMemo, useState } from 'react';
import { findInFlow, type FindMatch, type FindOptions } from '../../../core/editing/find';
import type { Flow } from '../../../core/model/flow';
import { patternRunner, SupersededError } from './pattern-runner';
import { typeLabel } from './pattern-requests';

export interface FoundMatches {
  matches: FindMatch[];
  /** Which words and toggles `matches` are for: a new value means a new search, not an edit of the flow. */
  searchedFor: string;
  /** Why the search was stopped (a regular expression too slow on this flow), else undefined. */
  stopped?: string;
  /** The regular expression was searched on the page, with no time limit: Find's worker could not start. */
  unguarded?: boolean;
}

/**
 * Find's matches on the flow. Words as typed are searched at once, on the
 * page. A regular expression is searched in a worker (pattern-runner.ts)
 * that is stopped when it takes too long: until its answer comes, the last
 * one stays on screen, as in a code editor. `problem`: the words cannot be
 * searched (patternProblem), so nothing is.
 */
export function useFindMatches(
  flow: Flow | undefined,
  words: string,
  options: FindOptions,
  problem: string | undefined,
): FoundMatches {
  const key = useMemo(() => JSON.stringify([words, options]), [words, options]);
  const inWorker = Boolean(options.regex) && flow !== undefined && problem === undefined && words.trim() !== '';
  const here = useMemo(
    () => (flow && !problem && !inWorker ? findInFlow(flow, words, typeLabel, options) : []),
    [flow, words, options, problem, inWorker],
  );
  const [fromWorker, setFromWorker] = useState<FoundMatches>({ matches: [], searchedFor: '' });
  useEffect(() => {
    if (!inWorker || !flow) return;
    let isCurrent = true;
    patternRunner.find(flow, words, options, 'find-field').then(
      (matches) => isCurrent && setFromWorker({ matches, searchedFor: key, unguarded: patternRunner.isUnguarded }),
      (error: unknown) => {
        if (!isCurrent || error instanceof SupersededError) return;
        setFromWorker({
          matches: [],
          searchedFor: key,
          stopped: error instanceof Error ? error.message : String(error),
        });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [inWorker, flow, key]);
  return inWorker ? fromWorker : { matches: here, searchedFor: key };
}
