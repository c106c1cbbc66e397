import '@xyflow/react/dist/style.css';
import './styles.css';
import { prefetch } from './api/transport';
import { routeFromHash } from './routes';

// The entry imports almost nothing, so a flow named in the URL is asked for
// while the app's code is still loading; the editor then gets that reply.
const route = routeFromHash();
if (route.page === 'editor') prefetch('flows', 'get', { id: route.flowId, withProblems: false });

void import('./start');
