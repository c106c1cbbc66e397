import { prefetch } from './api/transport';
import { routeFromHash } from './routes';

// Imported by the entry before the app, and free of the app's code, so a flow
// named in the URL is asked for before the app's own modules run (the bundle
// may still evaluate library code such as React Flow's first). The editor then
// gets this reply (see prefetch).
const route = routeFromHash();
if (route.page === 'editor') prefetch('flows', 'get', { id: route.flowId, withProblems: false });
