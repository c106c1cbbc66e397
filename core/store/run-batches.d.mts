import type Database from 'better-sqlite3';
import type { RunStatementName, RunWrite, RunWriteBatch } from './run-statements';

export interface FailedWrite {
  write: RunWrite;
  error: Error;
}

export interface BatchHooks<B extends RunWriteBatch> {
  /** The database stayed locked past busy_timeout; the batch waits for a retry. */
  onBusy(error: Error): void;
  /** Writes that failed for a reason waiting does not fix; the rest of their batch was committed. */
  onFailed(failed: FailedWrite[]): void;
  /** The batch is done with. */
  onSettled?(batch: B): void;
  retryMs?: number;
}

export interface BatchCommitter<B extends RunWriteBatch> {
  add(batch: B): void;
  drain(): boolean;
  readonly pendingCount: number;
  stop(): void;
}

export function createBatchCommitter<B extends RunWriteBatch>(
  db: Database.Database,
  statements: Record<RunStatementName, string>,
  hooks: BatchHooks<B>,
): BatchCommitter<B>;
