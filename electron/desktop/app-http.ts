import { DEFAULT_PORT } from '../../core/model/client-setup';
import { startHttpHost, type RunningHttpHost } from '../../core/host/http-host';
import { recordServe } from '../../core/host/serve-registry';
import type { Services } from '../../core/services/open-services';
import { FLOWBENCH_VERSION } from '../../core/services/version';

/** The port the app serves MCP on: FLOWBENCH_PORT, else serve's default. */
export function appPort(env: NodeJS.ProcessEnv): number {
  const asked = env.FLOWBENCH_PORT;
  const port = asked === undefined ? DEFAULT_PORT : Number(asked);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : DEFAULT_PORT;
}

/**
 * The Streamable HTTP endpoint, started with the app and bearer-protected like
 * `flowbench serve`'s. When the port is taken (a `serve` already running) the
 * app takes a free one rather than serving none, and says so on the Connect
 * screen; either way `mcp-config` learns the port in use.
 */
export async function startAppHttp(
  services: Services,
  port: number,
): Promise<{ host: RunningHttpHost; note?: string }> {
  const start = (at: number) => startHttpHost(services, { port: at, requireAuth: true, version: FLOWBENCH_VERSION });
  let host: RunningHttpHost;
  let note: string | undefined;
  try {
    host = await start(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    host = await start(0);
    note = `port ${port} is taken (is \`flowbench serve\` running?), so the app serves on ${host.port}; set FLOWBENCH_PORT to choose one`;
  }
  recordServe(services, host.port);
  return { host, ...(note ? { note } : {}) };
}
