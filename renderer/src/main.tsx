import '@xyflow/react/dist/style.css';
import './styles.css';
// First among the app's modules: it asks for the flow named in the URL before the others run.
import './prefetch-route';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { applyCardSize } from './editor/card-size';
import { reportUnhandledFailures } from './report-failures';
import { routeFromHash } from './routes';
import { useAppStore } from './store/app-store';

applyCardSize(document);
reportUnhandledFailures((message) => useAppStore.getState().notify(message));

const root = document.getElementById('root');
if (root) {
  // A flow named in the URL is usually here already (see prefetch-route.ts), so
  // the first render draws the editor instead of "Opening…" and then the editor.
  // A failure is left to the editor page, which asks again and shows it.
  const route = routeFromHash();
  if (route.page === 'editor')
    await useAppStore
      .getState()
      .openFlow(route.flowId)
      .catch(() => undefined);
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
