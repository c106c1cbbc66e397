/** A load made once (see loadOnce). */
export interface Loader<T> {
  (): Promise<T>;
  /** The load made or being made; undefined before the first call, and after one that failed. */
  readonly current: Promise<T> | undefined;
}

/**
 * A load made once, its promise shared by every caller, for the libraries and
 * modules Flowbench loads on first use. One that failed is made again at the
 * next call instead of failing every later one until the process restarts: a
 * file read while the process had no descriptors left (EMFILE), or a catalogue
 * that could not be read for a moment, loads a moment later.
 */
export function loadOnce<T>(load: () => Promise<T>): Loader<T> {
  let loading: Promise<T> | undefined;
  const loader = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return Object.defineProperty(loader, 'current', { get: () => loading }) as Loader<T>;
}
