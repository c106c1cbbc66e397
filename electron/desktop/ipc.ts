import type { ApiReply } from '../../core/api/contract';
import type { ErrorCode } from '../../core/model/errors';
import type { ApiHost } from '../../core/host/api-host';
import type { DesktopShell } from './shell';

/** The one channel the preload may invoke (preload.ts allowlists it too). */
export const INVOKE_CHANNEL = 'flowbench:invoke';
export const EVENT_CHANNEL = 'flowbench:event';

const refuse = (code: ErrorCode, message: string): ApiReply => ({ ok: false, error: { code, message } });

/**
 * The typed API over IPC. Main checks who asks (only the app's own page) and
 * what: service and method must be strings the contract names, and ApiHost
 * checks the arguments against the method's schema before anything runs.
 */
export function serveApiOverIpc(
  shell: Pick<DesktopShell, 'ipc'>,
  api: ApiHost,
  isAppPage: (url: string) => boolean,
): void {
  shell.ipc.handle(INVOKE_CHANNEL, (event, service: unknown, method: unknown, args: unknown) => {
    const from = event.senderFrame?.url ?? '';
    if (!isAppPage(from))
      return refuse('USAGE_ERROR', `the API answers the app's own page only, not ${from || 'an unknown frame'}`);
    if (typeof service !== 'string' || typeof method !== 'string') {
      return refuse('VALIDATION_ERROR', 'an API call names its service and method as strings');
    }
    return api.invoke(service, method, args, { clientId: `window-${event.sender.id}`, transport: 'ipc' });
  });
}
