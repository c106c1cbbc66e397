import type Database from 'better-sqlite3';
import {
  PLAIN_STEP_KEYS,
  STEP_KEYS,
  type RunSql,
  type RunStatementName,
  type RunWrite,
  type RunWriteBatch,
} from './run-statement-keys';

/**
 * Commits batches of run-record writes, in order, on one better-sqlite3
 * connection. Shared by the inline writer (main thread) and the background
 * writer's worker.
 */

export interface FailedWrite {
  write: RunWrite;
  error: Error;
}

export interface BatchHooks<B extends RunWriteBatch> {
  /** The database stayed locked past busy_timeout; the batch waits for a retry. */
  onBusy(error: Error): void;
  /**
   * Writes that failed for a reason waiting does not fix. `whole`: the batch
   * could not be committed at all (a full disk, an I/O error), so every write
   * of it is here; otherwise the rest of the batch was committed.
   */
  onFailed(failed: FailedWrite[], whole: boolean): void;
  /** The batch is done with: committed, or its failed writes reported. */
  onSettled?(batch: B): void;
  /** Called right before each attempt to commit the batch; may take writes out of it. */
  beforeCommit?(batch: B): void;
  retryMs?: number;
}

export interface BatchCommitter<B extends RunWriteBatch> {
  add(batch: B): void;
  /**
   * Commits one batch now, unless the database is locked (then 'busy', and
   * the batch is not kept: the caller hands it on). Other failures are
   * reported through onFailed, as in `add`.
   */
  tryCommit(batch: B): 'committed' | 'busy';
  /** Commits what is pending; false when the database stayed locked (a retry is scheduled). */
  drain(): boolean;
  readonly pendingCount: number;
  /** The batches not committed yet, oldest first. */
  readonly pending: readonly B[];
  stop(): void;
}

/** Another connection holds the write lock past busy_timeout: worth trying again later. */
const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
};

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export type PreparedRunStatements = Record<RunStatementName, Database.Statement>;

/** The run statements prepared on one connection. */
export function prepareRunStatements(
  db: Database.Database,
  statements: Readonly<Record<RunStatementName, string>>,
): PreparedRunStatements {
  return Object.fromEntries(
    Object.entries(statements).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as PreparedRunStatements;
}

/**
 * Runs writes one by one inside the caller's transaction, so that one bad
 * record does not take the others with it; returns those that failed for a
 * reason waiting does not fix, and throws when the database is busy.
 */
export function runEach(prepared: PreparedRunStatements, writes: readonly RunWrite[]): FailedWrite[] {
  const failed: FailedWrite[] = [];
  for (const write of writes) {
    try {
      prepared[write[0]].run(write[1]);
    } catch (error) {
      if (isBusy(error)) throw error;
      failed.push({ write, error: asError(error) });
    }
  }
  return failed;
}

export function createBatchCommitter<B extends RunWriteBatch>(
  db: Database.Database,
  sql: RunSql,
  hooks: BatchHooks<B>,
): BatchCommitter<B> {
  const prepared = prepareRunStatements(db, sql.statements);
  const steps = bulkStepWriter(db, sql);
  // IMMEDIATE: take the write lock when the transaction begins, so a busy database is waited for (busy_timeout).
  const commitAll = db.transaction((writes: RunWrite[]) => {
    // A run's steps come in a row: many a statement (see bulkStepWriter); the other writes one by one.
    for (let i = 0; i < writes.length;) {
      const [name, params] = writes[i] as RunWrite;
      if (name !== 'upsertStep') {
        prepared[name].run(params);
        i++;
      } else i = steps(writes, i);
    }
  });
  const commit = (writes: RunWrite[]) => commitAll.immediate(writes);
  // After a failure that waiting does not fix (the run's flow was deleted meanwhile, a full
  // disk): the same batch write by write, so one bad record does not take the others with it.
  const commitEachTx = db.transaction((writes: RunWrite[]) => runEach(prepared, writes));
  const commitEach = (writes: RunWrite[]) => commitEachTx.immediate(writes);
  const pending: B[] = [];
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const retryLater = (error: unknown): false => {
    hooks.onBusy(asError(error));
    retryTimer ??= setTimeout(() => {
      retryTimer = undefined;
      drain();
    }, hooks.retryMs ?? 1000);
    return false;
  };

  /** Commits a batch, or its writes one by one after a failure waiting does not fix; throws only when busy. */
  function commitOrReport(batch: B): void {
    hooks.beforeCommit?.(batch);
    try {
      commit(batch.writes);
    } catch (error) {
      if (isBusy(error)) throw error;
      try {
        const failed = commitEach(batch.writes);
        if (failed.length > 0) hooks.onFailed(failed, false);
      } catch (again) {
        if (isBusy(again)) throw again;
        hooks.onFailed(
          batch.writes.map((write) => ({ write, error: asError(again) })),
          true,
        );
      }
    }
  }

  function drain(): boolean {
    while (pending.length > 0) {
      const batch = pending[0] as B;
      try {
        commitOrReport(batch);
      } catch (error) {
        return retryLater(error);
      }
      pending.shift();
      hooks.onSettled?.(batch);
    }
    return true;
  }

  return {
    add(batch) {
      pending.push(batch);
      // While a retry waits for the lock, new batches line up behind it.
      if (retryTimer === undefined) drain();
    },
    tryCommit(batch) {
      try {
        commitOrReport(batch);
      } catch (error) {
        if (isBusy(error)) return 'busy';
        throw error;
      }
      hooks.onSettled?.(batch);
      return 'committed';
    },
    drain,
    get pendingCount() {
      return pending.length;
    },
    get pending() {
      return pending;
    },
    stop() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}

/**
 * Most step rows one statement writes (× 17 parameters, far below SQLite's
 * limit). A 1,000-step run's rows took 2.1 ms to write at 8, 16 or 32 rows a
 * statement, 2.2 ms at 64, and 2.7 ms one row a statement.
 */
const STEP_ROWS = 16;

/** The positions in a step's values of PLAIN_STEP_KEYS, and of the others (null in a plain step). */
const PLAIN_POSITIONS = PLAIN_STEP_KEYS.map((key) => STEP_KEYS.indexOf(key));
const OTHER_POSITIONS = STEP_KEYS.flatMap((key, i) => (PLAIN_STEP_KEYS.includes(key) ? [] : [i]));

/** A step with nothing but PLAIN_STEP_KEYS' values. */
const isPlain = (values: readonly unknown[]): boolean => OTHER_POSITIONS.every((i) => values[i] === null);

/** The statement writing `rows` rows of `sql`'s VALUES tuple, prepared once per size. */
function multiRow(db: Database.Database, sql: string): (rows: number) => Database.Statement {
  const tuple = /VALUES (\([^)]*\))/.exec(sql)?.[1];
  if (!tuple) throw new Error(`no VALUES (…) in the step statement: ${sql}`);
  const bySize = new Map<number, Database.Statement>();
  return (rows) => {
    let statement = bySize.get(rows);
    if (!statement) {
      statement = db.prepare(sql.replace(`VALUES ${tuple}`, `VALUES ${Array<string>(rows).fill(tuple).join(', ')}`));
      bySize.set(rows, statement);
    }
    return statement;
  };
}

/**
 * Writes the consecutive step upserts that start at `from` as multi-row
 * upserts, STEP_ROWS rows a statement, and returns the index after them.
 * SQLite applies the rows of one statement in order, so a step written twice
 * in it (started, then finished) merges as it does over two statements.
 * Plain steps (see PLAIN_STEP_KEYS) go in statements of their own that bind
 * 10 values a row instead of 17: a 1,000-step run's rows took 2.9 µs each
 * and 2.5 µs plain, in a better-sqlite3 micro-benchmark here.
 */
function bulkStepWriter(db: Database.Database, sql: RunSql): (writes: RunWrite[], from: number) => number {
  const full = multiRow(db, sql.statements.upsertStep);
  const plain = multiRow(db, sql.plainStepUpsert);
  return (writes, from) => {
    const plainRows = isPlain((writes[from] as RunWrite)[1]);
    let end = from + 1;
    while (
      end < writes.length &&
      end - from < STEP_ROWS &&
      (writes[end] as RunWrite)[0] === 'upsertStep' &&
      isPlain((writes[end] as RunWrite)[1]) === plainRows
    )
      end++;
    const params: unknown[] = [];
    for (let i = from; i < end; i++) {
      const values = (writes[i] as RunWrite)[1];
      if (plainRows) for (const position of PLAIN_POSITIONS) params.push(values[position]);
      else for (const value of values) params.push(value);
    }
    (plainRows ? plain : full)(end - from).run(params);
    return end;
  };
}
