import type Database from 'better-sqlite3';
import { isProcessAlive } from './process-alive';
import type { InterruptSql } from './run-statement-keys';

/** Why a run is closed as interrupted, for its record. */
export const interruptedMessage = (pid: number) =>
  `the Flowbench process running it (pid ${pid}) stopped before the run ended: closed (as an MCP client closes \`flowbench mcp\`), killed, crashed, or the computer restarted`;
const STEP_MESSAGE = 'Flowbench stopped while this step was running';

/**
 * Closes the runs a process that is gone left "running" (an MCP client that
 * quit and stopped its `flowbench mcp`, a killed terminal, a crash) as
 * interrupted, with their running steps cancelled: without this, they show
 * as running for ever, and nothing can cancel them. Run by every process
 * that opens the database, and every few seconds by those that stay open
 * (the app, `serve`, `flowbench mcp`) after they stored the stopped
 * process's run journal: the runs it finished are stored as they ended first.
 * Plain SQL on any connection: the run writer's thread runs it too.
 * Returns how many runs it closed.
 */
export function closeRunsOfStoppedProcesses(sqlite: Database.Database, sql: InterruptSql): number {
  const running = sqlite.prepare(sql.running).all() as { id: string; pid: number; startedAt: number }[];
  const stopped = running.filter((run) => !isProcessAlive(run.pid, run.startedAt));
  if (stopped.length === 0) return 0;
  const closeRun = sqlite.prepare(sql.closeRun);
  const closeSteps = sqlite.prepare(sql.closeSteps);
  const now = Date.now();
  sqlite
    .transaction(() => {
      for (const run of stopped) {
        closeRun.run('RUN_INTERRUPTED', interruptedMessage(run.pid), now, run.id);
        closeSteps.run(STEP_MESSAGE, run.id);
      }
    })
    .immediate();
  return stopped.length;
}
