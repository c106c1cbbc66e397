import { z } from 'zod';
import { isProcessAlive } from '../store/process-alive';
import type { Services } from './open-services';

/**
 * Which `flowbench serve` (or app) serves HTTP over a database, so that
 * `mcp-config` names the port in use rather than the default one.
 */
const SERVE_KEY = 'serve.running';
// `at`: when it started serving (see isProcessAlive); records written before it was kept have none.
const ServeRunningSchema = z
  .object({ port: z.number().int(), pid: z.number().int(), at: z.number().optional() })
  .optional();

/** The port and process of a server running on this database, if one is (a dead process's record is ignored). */
export function runningServe(services: Services): { port: number; pid: number } | undefined {
  const running = services.settings.get(SERVE_KEY, ServeRunningSchema, undefined);
  return running && isProcessAlive(running.pid, running.at) ? { port: running.port, pid: running.pid } : undefined;
}

/** Records this process as the one serving HTTP on `port`. */
export function recordServe(services: Services, port: number): void {
  services.settings.set(SERVE_KEY, { port, pid: process.pid, at: Date.now() });
}
