import { useEnvironmentProxy } from '../providers/environment-proxy';
import { resolveDatabasePath } from '../services/paths';
import type { Services } from '../services/open-services';
import { lib, loadLib } from './lib';
import { toFlowbenchError } from '../model/errors';
import { formatProblem, type Problem } from '../model/problems';
import type { FlowRepository } from '../store/flow-repository';

export interface GlobalOptions {
  db?: string;
}

/** What a command needs: the services over the database (opened on first use) and output helpers. */
export class CliContext {
  private opened: Services | undefined;
  /** Set by the commands that keep running (mcp, serve) before they open the services. */
  isLongLived = false;

  constructor(private readonly options: () => GlobalOptions) {}

  /**
   * Loads the services' code (lib.ts) and routes requests through the proxy the
   * environment names (providers/environment-proxy.ts); the CLI calls it before any
   * command's action, so `--help` never does.
   */
  async load(): Promise<void> {
    await Promise.all([loadLib(), useEnvironmentProxy()]);
  }

  get services(): Services {
    if (!this.opened) {
      const { path, isDefault } = resolveDatabasePath(this.options().db);
      // The user's own database starts with the examples; explicit --db files start empty.
      // The desktop app's stdio entry runs this CLI on its own binary, with its own build of the addon.
      const nativeBinding = process.env.FLOWBENCH_SQLITE_BINDING;
      this.opened = lib.openServices(path, {
        seedExamples: isDefault,
        backgroundWrites: this.isLongLived,
        ...(nativeBinding ? { nativeBinding } : {}),
      });
    }
    return this.opened;
  }

  get flows(): FlowRepository {
    return this.services.flows;
  }

  /** Closes the database and ends the MCP servers this command started (their processes must not outlive it). */
  async close(): Promise<void> {
    const opened = this.opened;
    if (!opened) return;
    await opened.servers.close();
    opened.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Writes an error to stderr (as JSON with --json) and returns the exit code it deserves. */
export function reportError(error: unknown, isJson: boolean): number {
  const failure = toFlowbenchError(error);
  const problems = (failure.data?.problems ?? []) as (Problem | { message: string })[];
  if (isJson) {
    process.stderr.write(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
  } else {
    process.stderr.write(`flowbench: error [${failure.code}]: ${failure.message}\n`);
    for (const problem of problems)
      process.stderr.write(`  ${'code' in problem ? formatProblem(problem) : problem.message}\n`);
    if (!failure.isUserError && failure.cause instanceof Error && failure.cause.stack) {
      process.stderr.write(`${failure.cause.stack}\n`);
    }
  }
  return failure.code === 'USAGE_ERROR' ? 2 : 1;
}
