import { lazy, useState, useSyncExternalStore, type ComponentType } from 'react';

/** How soon a part whose code could not load is tried again; doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 15_000;

/**
 * Tries a failed load again, later and later, while some stand-in waits for
 * it, and at once when the browser says it is back online. Chromium fetches
 * a dynamic import again after a failure (the module map no longer keeps
 * failures), so a retry of the same import is enough.
 */
function retrying<C>(load: () => Promise<C>) {
  let loaded: C | undefined;
  let trying = false;
  let delay = RETRY_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting = new Set<() => void>();
  const attempt = () => {
    if (trying || loaded !== undefined) return;
    trying = true;
    clearTimeout(timer);
    load().then(
      (component) => {
        loaded = component;
        window.removeEventListener('online', attempt);
        for (const wake of waiting) wake();
      },
      () => {
        trying = false;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        schedule();
      },
    );
  };
  const schedule = () => {
    clearTimeout(timer);
    if (waiting.size > 0) timer = setTimeout(attempt, delay);
  };
  return {
    subscribe: (wake: () => void) => {
      waiting.add(wake);
      if (waiting.size === 1) {
        window.addEventListener('online', attempt);
        if (!trying) schedule();
      }
      return () => {
        waiting.delete(wake);
        if (waiting.size > 0) return;
        clearTimeout(timer);
        window.removeEventListener('online', attempt);
      };
    },
    current: () => loaded,
  };
}

/**
 * `React.lazy` for a part of a page whose code loads on first use, with a
 * stand-in for when that code cannot load (the host stopped, the connection
 * dropped): the part is drawn by `fallback` instead of its load failing into
 * the page, which for the editor (no boundary above it) would blank the
 * window with the person's work on it. The load is tried again meanwhile,
 * and the part takes the stand-in's place once it comes, without a reload.
 */
export function lazyOr<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ComponentType<P>) {
  const later = retrying(load);
  const Fallback = fallback;

  function StandIn(props: P) {
    const Part = useSyncExternalStore(later.subscribe, later.current);
    // Not swapped while the person is in the stand-in (typing in the plain box): the part would
    // take the cursor from under their typing. It comes when they leave it.
    const [isInUse, setInUse] = useState(false);
    if (Part && !isInUse) return <Part {...props} />;
    return (
      <div
        className="lazy-stand-in"
        onFocus={() => setInUse(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) setInUse(false);
        }}
      >
        <Fallback {...props} />
      </div>
    );
  }

  return lazy<ComponentType<P>>(() =>
    load().then(
      (component) => ({ default: component }),
      () => ({ default: StandIn }),
    ),
  );
}
