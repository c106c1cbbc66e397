import { createApiClient } from '../../../core/api/client';
import { transport } from './transport';

export { CLIENT_ID, transport } from './transport';

/** The typed API: one method per contract entry (the host checks arguments), host errors rethrown as FlowbenchError. */
export const api = createApiClient(transport);
