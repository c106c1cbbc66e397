import { FlowbenchError } from '../../core/model/errors';

/**
 * The last resort for a request nobody waited on (a click's delete, a list
 * reloading after an event): when the host refuses it or is gone, the person
 * reads why in the app's message line instead of nothing happening. Anything
 * else thrown is a defect, and stays an uncaught error for tests to catch.
 */
export function reportUnhandledFailures(notify: (message: string) => void): void {
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    if (!(reason instanceof FlowbenchError)) return;
    event.preventDefault();
    notify(reason.message);
  });
}
