import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` for a part of a page whose code loads on first use, with a
 * stand-in for when that code cannot load (the host stopped, the connection
 * dropped): the part is drawn by `fallback` instead of its load failing into
 * the page, which for the editor (no boundary above it) would blank the
 * window with the person's work on it. The stand-in stays until the window reloads.
 */
export function lazyOr<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ComponentType<P>) {
  return lazy(() =>
    load().then(
      (component) => ({ default: component }),
      () => ({ default: fallback }),
    ),
  );
}
