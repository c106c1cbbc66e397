import type { MouseEvent, ReactNode } from 'react';
import { hashOf, type Route } from './routes';
import { useAppStore } from './store/app-store';

/**
 * A link to one of the app's pages: a real `<a href="#/…">`, so it can be
 * opened in a new tab or copied, and is announced as a link. A plain click
 * navigates within the app (history kept); in a browser, a click with a
 * modifier key or the middle button is the browser's (a new tab).
 */
export function PageLink({ to, className, children }: { to: Route; className?: string; children: ReactNode }) {
  const onClick = (event: MouseEvent) => {
    // The desktop app opens no second window (electron/desktop/security.ts): there every click navigates.
    const toBrowser = event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
    if (toBrowser && window.flowbench?.host !== 'electron') return;
    event.preventDefault();
    useAppStore.getState().navigate(to);
  };
  return (
    <a href={hashOf(to)} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
