import type { MouseEvent, ReactNode } from 'react';
import { hashOf, type Route } from './routes';
import { useAppStore } from './store/app-store';

/**
 * A link to one of the app's pages: a real `<a href="#/…">`, so it can be
 * opened in a new tab or copied, and is announced as a link. A plain click
 * navigates within the app (history kept), after `beforeLeave` when given (the
 * editor saves what is left first); in a browser, a click with a modifier key
 * or the middle button is the browser's (a new tab), and this page stays.
 */
export function PageLink({
  to,
  className,
  beforeLeave,
  children,
}: {
  to: Route;
  className?: string;
  beforeLeave?: () => Promise<void>;
  children: ReactNode;
}) {
  const onClick = (event: MouseEvent) => {
    // The desktop app opens no second window (electron/desktop/security.ts): there every click navigates.
    const toBrowser = event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
    if (toBrowser && window.flowbench?.host !== 'electron') return;
    event.preventDefault();
    const navigate = () => useAppStore.getState().navigate(to);
    if (beforeLeave) void beforeLeave().then(navigate);
    else navigate();
  };
  return (
    <a href={hashOf(to)} className={className} onClick={onClick}>
      {children}
    </a>
  );
}

/** "← Flows", back to the flows list from every other page: a link drawn as a button. */
export function BackToFlows({ beforeLeave }: { beforeLeave?: () => Promise<void> }) {
  return (
    <PageLink to={{ page: 'home' }} className="button-like" beforeLeave={beforeLeave}>
      ← Flows
    </PageLink>
  );
}
