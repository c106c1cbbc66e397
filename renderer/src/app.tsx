import { useEffect } from 'react';
import { EditorPage } from './editor/editor-page';
import { HomePage } from './home/home-page';
import { ProvidersPage } from './providers/providers-page';
import { RunsPage } from './runs/runs-page';
import { ServersPage } from './servers/servers-page';
import { ConnectPage } from './connect/connect-page';
import { AgentsPage } from './agents/agents-page';
import { useAppStore } from './store/app-store';
import { routeFromHash } from './routes';
import { useFileDrop } from './use-file-drop';

/** The app shell: the flows list, or the editor of one flow. */
export function App() {
  const route = useAppStore((s) => s.route);
  const toast = useAppStore((s) => s.toast);
  useFileDrop();

  useEffect(() => {
    const onPop = () => useAppStore.setState({ route: routeFromHash() });
    window.addEventListener('popstate', onPop);
    window.addEventListener('hashchange', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('hashchange', onPop);
    };
  }, []);

  return (
    <div className="app">
      {route.page === 'home' && <HomePage />}
      {route.page === 'providers' && <ProvidersPage />}
      {route.page === 'runs' && <RunsPage />}
      {route.page === 'servers' && <ServersPage />}
      {route.page === 'connect' && <ConnectPage />}
      {route.page === 'agents' && <AgentsPage />}
      {route.page === 'editor' && <EditorPage key={route.flowId} flowId={route.flowId} />}
      {toast && (
        <div className="toast" role="status">
          {toast}
        </div>
      )}
    </div>
  );
}
