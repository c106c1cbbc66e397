import { useState } from 'react';

/** What each form had when its page was left, by form (see useKeptState). */
const kept = new Map<string, unknown>();

/**
 * useState whose value outlives the page it is on, for the session: a form
 * left half typed to look at another page is there as left on coming back.
 * In memory only, never stored: such forms may hold keys.
 */
export function useKeptState<T>(slot: string, initial: T): [T, (value: T) => void] {
  const [value, show] = useState<T>(() => (kept.has(slot) ? (kept.get(slot) as T) : initial));
  const set = (next: T) => {
    kept.set(slot, next);
    show(next);
  };
  return [value, set];
}
