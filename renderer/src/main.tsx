import '@xyflow/react/dist/style.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app';
import { prefetchFlow } from './store/editor-slice';
import { routeFromHash } from './store/ui-slice';

// The renderer's CSP forbids eval; zod then need not probe for it.
z.config({ jitless: true });

const route = routeFromHash();
if (route.page === 'editor') prefetchFlow(route.flowId);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
