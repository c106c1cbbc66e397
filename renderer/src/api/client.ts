import { createApiClient } from '../../../core/api/contract';
import { transport } from './transport';

export { CLIENT_ID, transport } from './transport';

/** The typed API: one method per contract entry, arguments checked, host errors rethrown as FlowbenchError. */
export const api = createApiClient(transport);
