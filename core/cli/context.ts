import { installExamples } from '../host/examples';
import { resolveDatabasePath } from '../host/paths';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import { formatProblem, type Problem } from '../model/problems';
import { openDatabase, type FlowbenchDatabase } from '../store/database';
import { FlowRepository } from '../store/flow-repository';

export interface GlobalOptions {
  db?: string;
}

/** What a command needs: the database (opened on first use) and output helpers. */
export class CliContext {
  private database: FlowbenchDatabase | undefined;
  private repository: FlowRepository | undefined;

  constructor(private readonly options: () => GlobalOptions) {}

  get flows(): FlowRepository {
    if (!this.repository) {
      const { path, isDefault } = resolveDatabasePath(this.options().db);
      this.database = openDatabase(path);
      this.repository = new FlowRepository(this.database);
      // The user's own database starts with the examples; explicit --db files start empty.
      if (this.database.isNew && isDefault) installExamples(this.repository);
    }
    return this.repository;
  }

  close(): void {
    this.database?.close();
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
  const problems = (failure.data?.problems ?? []) as Problem[];
  if (isJson) {
    process.stderr.write(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
  } else {
    process.stderr.write(`flowbench: error [${failure.code}]: ${failure.message}\n`);
    for (const problem of problems) process.stderr.write(`  ${formatProblem(problem)}\n`);
    if (!failure.isUserError && failure.cause instanceof Error && failure.cause.stack) {
      process.stderr.write(`${failure.cause.stack}\n`);
    }
  }
  return failure.code === 'USAGE_ERROR' ? 2 : 1;
}

export function usageError(message: string): FlowbenchError {
  return new FlowbenchError('USAGE_ERROR', message);
}
