import { z } from 'zod';
import { DEFAULT_PORT } from '../../core/model/client-setup';
import { FlowbenchError } from '../../core/model/errors';
import type { ApiHost } from '../../core/host/api-host';
import { startHttpHost, type RunningHttpHost } from '../../core/host/http-host';
import { recordServe } from '../../core/services/serve-registry';
import type { Services } from '../../core/services/open-services';
import { FLOWBENCH_VERSION } from '../../core/services/version';

/** The port chosen on the Connect screen, kept for later launches. */
const PORT_KEY = 'app.httpPort';
const PortSchema = z.number().int().min(0).max(65535).optional();

/** FLOWBENCH_PORT, when it names a port: it wins over the port chosen in the app. */
export function envPort(env: NodeJS.ProcessEnv): number | undefined {
  const port = env.FLOWBENCH_PORT === undefined ? Number.NaN : Number(env.FLOWBENCH_PORT);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : undefined;
}

const isPortTaken = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

/**
 * The app's Streamable HTTP endpoint, bearer-protected like `flowbench
 * serve`'s. It starts with the app; when its port is taken (a `serve` already
 * running) it takes a free one rather than serving none, and says so. The
 * Connect screen moves it to another port; `mcp-config` learns the port in use.
 * Its editor pages call the app's own API host (see HttpHostOptions.api).
 */
export class AppHttp {
  private constructor(
    private readonly services: Services,
    private readonly api: ApiHost,
    private current: RunningHttpHost,
    /** Anything to know about the port in use (not the one asked for). */
    public note: string | undefined,
  ) {}

  static async start(services: Services, api: ApiHost, override: number | undefined): Promise<AppHttp> {
    const port = override ?? services.settings.get(PORT_KEY, PortSchema, undefined) ?? DEFAULT_PORT;
    let host: RunningHttpHost;
    let note: string | undefined;
    try {
      host = await listen(services, api, port);
    } catch (error) {
      if (!isPortTaken(error)) throw error;
      host = await listen(services, api, 0);
      note = `port ${port} is taken (is \`flowbench serve\` running?), so the app serves on ${host.port}; choose another port below`;
    }
    recordServe(services, host.port);
    return new AppHttp(services, api, host, note);
  }

  get host(): RunningHttpHost {
    return this.current;
  }

  /** Serves on `port` from now on (the old endpoint closes once the new one listens) and on later launches. */
  async move(port: number): Promise<void> {
    if (port !== 0 && port === this.current.port) return;
    let next: RunningHttpHost;
    try {
      next = await listen(this.services, this.api, port);
    } catch (error) {
      if (!isPortTaken(error)) throw error;
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `port ${port} is in use by another program; the app still serves on ${this.current.port}`,
      );
    }
    const previous = this.current;
    this.current = next;
    this.note = undefined;
    this.services.settings.set(PORT_KEY, port);
    recordServe(this.services, next.port);
    await previous.close();
  }

  close(): Promise<void> {
    return this.current.close();
  }
}

function listen(services: Services, api: ApiHost, port: number): Promise<RunningHttpHost> {
  return startHttpHost(services, { port, requireAuth: true, version: FLOWBENCH_VERSION, api });
}
