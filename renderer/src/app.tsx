import { lazy, Suspense, useEffect } from 'react';
import { EditorPage } from './editor/editor-page';
import { HomePage } from './home/home-page';
import { PageBoundary } from './page-boundary';
import { useAppStore } from './store/app-store';
import { hashOf, routeFromHash } from './routes';
import { useFileDrop } from './use-file-drop';

// The pages a person opens now and then load when first opened: the flows list and the editor,
// where the app starts, do not wait for their code.
const ProvidersPage = lazy(() => import('./providers/providers-page').then((m) => ({ default: m.ProvidersPage })));
const SecretsPage = lazy(() => import('./secrets/secrets-page').then((m) => ({ default: m.SecretsPage })));
const RunsPage = lazy(() => import('./runs/runs-page').then((m) => ({ default: m.RunsPage })));
const ServersPage = lazy(() => import('./servers/servers-page').then((m) => ({ default: m.ServersPage })));
const ConnectPage = lazy(() => import('./connect/connect-page').then((m) => ({ default: m.ConnectPage })));
const AgentsPage = lazy(() => import('./agents/agents-page').then((m) => ({ default: m.AgentsPage })));

/** The app shell: the flows list, or the editor of one flow. */
export function App() {
  const route = useAppStore((s) => s.route);
  const toast = useAppStore((s) => s.toast);
  useFileDrop();

  useEffect(() => {
    const onPop = () => {
      const route = routeFromHash();
      if (hashOf(route) !== hashOf(useAppStore.getState().route)) useAppStore.setState({ route });
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('hashchange', onPop);
    // A link followed while the app was starting (after the store read the hash, before these
    // listeners): its hashchange is gone, so the page would stay on the route the app started on.
    onPop();
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('hashchange', onPop);
    };
  }, []);

  return (
    <div className="app">
      {route.page === 'home' && <HomePage />}
      <PageBoundary key={route.page}>
        <Suspense fallback={null}>
          {route.page === 'providers' && <ProvidersPage />}
          {route.page === 'secrets' && <SecretsPage />}
          {route.page === 'runs' && <RunsPage />}
          {route.page === 'servers' && <ServersPage />}
          {route.page === 'connect' && <ConnectPage />}
          {route.page === 'agents' && <AgentsPage />}
        </Suspense>
      </PageBoundary>
      {route.page === 'editor' && <EditorPage key={route.flowId} flowId={route.flowId} />}
      {toast && (
        <div className="toast" role="status">
          {toast}
        </div>
      )}
    </div>
  );
}
