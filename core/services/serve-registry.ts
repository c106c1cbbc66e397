import { z } from 'zod';
import { isProcessAlive } from '../store/process-alive';
import type { Services } from './open-services';

/**
 * Which `flowbench serve` (or app) serves HTTP over a database, so that
 * `mcp-config` names the port in use rather than the default one.
 */
const SERVE_KEY = 'serve.running';
const ServeRunningSchema = z.object({ port: z.number().int(), pid: z.number().int() }).optional();

/** The port and process of a server running on this database, if one is (a dead process's record is ignored). */
export function runningServe(services: Services): { port: number; pid: number } | undefined {
  const running = services.settings.get(SERVE_KEY, ServeRunningSchema, undefined);
  return running && isProcessAlive(running.pid) ? running : undefined;
}

/** Records this process as the one serving HTTP on `port`. */
export function recordServe(services: Services, port: number): void {
  services.settings.set(SERVE_KEY, { port, pid: process.pid });
}
