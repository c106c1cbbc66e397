import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS, configureConnection } from './connection';
import { createBatchCommitter, type BatchCommitter } from './run-batches';
import { RUN_STATEMENTS, type RunWrite, type RunWriteBatch } from './run-statements';
import type { FromWorker, ToWorker, WriterWorkerData } from './run-writer.worker';

/** Where run records go once the group-commit queue hands them over. */
export interface RunWriter {
  /** Hands a batch over; it is committed now (inline) or soon on the writer's thread (background). */
  write(batch: RunWriteBatch): void;
  /** Resolves once every batch handed over so far is committed (or reported as failed). Never blocks. */
  settled(): Promise<void>;
  /**
   * Blocks until every batch handed over is committed, at most MAX_SYNC_BLOCK_MS:
   * reads in this process see what it recorded unless the database is locked that long.
   */
  sync(): void;
  /** Commits what is left (waiting for a locked database up to its busy timeout) and lets go. */
  close(): void;
}

/** A write that failed for a reason waiting does not fix, with why. */
export interface DroppedWrite {
  write: RunWrite;
  message: string;
}

/** Told of writes that failed: the log stores their snapshots again later, and fails the runs they belong to. */
export type OnDropped = (dropped: readonly DroppedWrite[]) => void;

/**
 * The longest `sync` blocks its thread. A read waiting for run records it may
 * hold up is not worth freezing a window (Electron's main process) or every
 * MCP session for; past this the read goes ahead without them, and says so.
 */
export const MAX_SYNC_BLOCK_MS = 1_000;
/** How long `close` waits for the last records: past busy_timeout, so a lock held that long is the cause. */
const CLOSE_TIMEOUT_MS = BUSY_TIMEOUT_MS + 2_000;
/** Where scripts/build-node.mjs puts the worker (`npm ci` runs it). */
export const WORKER_SCRIPT = new URL('../../out/worker/run-writer.worker.mjs', import.meta.url);

const report = (message: string) => process.stderr.write(`flowbench: ${message}\n`);

/** Says which records were lost and why, and hands back the snapshots to store again. */
function reportFailed(failed: readonly DroppedWrite[], onDropped: OnDropped): void {
  const first = failed[0];
  if (!first) return;
  report(`${failed.length} run record write(s) failed and were skipped: ${first.message}`);
  onDropped(failed);
}

/** Commits on the main connection, on the caller's thread. For short-lived commands and tests. */
export class InlineRunWriter implements RunWriter {
  private readonly committer: BatchCommitter<RunWriteBatch>;
  private waiters: (() => void)[] = [];

  constructor(sqlite: Database.Database, onDropped: OnDropped) {
    this.committer = createBatchCommitter(sqlite, RUN_STATEMENTS, {
      onBusy: (error) => report(`run records wait for the database: ${error.message}`),
      onFailed: (failed) =>
        reportFailed(
          failed.map(({ write, error }) => ({ write, message: error.message })),
          onDropped,
        ),
      onSettled: () => {
        if (this.committer.pendingCount > 0) return;
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters) resolve();
      },
    });
  }

  write(batch: RunWriteBatch): void {
    this.committer.add(batch);
  }

  settled(): Promise<void> {
    if (this.committer.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  sync(): void {
    this.committer.drain();
  }

  close(): void {
    this.sync();
    this.committer.stop();
  }
}

interface NumberedBatch extends RunWriteBatch {
  id: number;
}

/** Commits made on this thread between two checkpoints run by the worker (about 1,000 WAL pages, SQLite's default). */
const CHECKPOINT_EVERY = 200;
const SETTLED = 0;
const STATE = 1;

/**
 * Commits on a worker thread with its own connection. The main thread only
 * posts batches; `sync` blocks on shared memory (briefly: MAX_SYNC_BLOCK_MS)
 * until the worker has committed them, and `settled` awaits the same without
 * blocking. If the worker cannot start, the batches it did not settle are
 * written inline.
 */
export class BackgroundRunWriter implements RunWriter {
  private readonly worker: Worker | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private unsettled: NumberedBatch[] = [];
  private posted = 0;
  private fallback: InlineRunWriter | undefined;
  /** Callers of `settled`, each with the last batch id it waits for. */
  private waiters: { id: number; resolve: () => void }[] = [];
  /** Commits on this thread's connection when nothing waits for the worker and the database is free. */
  /** null: this thread cannot open a connection of its own, so it never commits here. */
  private here: BatchCommitter<RunWriteBatch> | undefined | null;
  private hereConnection: Database.Database | undefined;
  private commitsHere = 0;
  /** The worker is checkpointing (see run-writer.worker.ts); this thread does not commit meanwhile. */
  private checkpointing = false;
  private readonly nativeBinding: string | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly onDropped: OnDropped,
    options: { nativeBinding?: string; script?: URL } = {},
  ) {
    this.nativeBinding = options.nativeBinding;
    const script = options.script ?? WORKER_SCRIPT;
    // A build that left the worker out writes inline rather than stall the first read.
    if (!existsSync(fileURLToPath(script))) {
      report(`the background run writer is missing (${script.href}); writing run records inline`);
      this.fallback = new InlineRunWriter(sqlite, onDropped);
      return;
    }
    const workerData: WriterWorkerData = {
      path: sqlite.name,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      statements: RUN_STATEMENTS,
      signals: this.state.buffer,
    };
    this.worker = new Worker(script, { workerData });
    // Pending batches are settled by `close`, not by keeping the process alive.
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'failed') reportFailed(message.failed, onDropped);
      else if (message.type === 'checkpointed') this.checkpointing = false;
      else this.wake(message.id);
    });
    this.worker.on('error', (error) => {
      report(`the background run writer stopped (${error.message}); writing run records inline`);
      void this.useFallback()
        .settled()
        .then(() => this.wake(Infinity));
    });
  }

  write(batch: RunWriteBatch): void {
    if (this.fallback) return this.fallback.write(batch);
    this.forgetSettled();
    // The common case: the database is free and the worker idle. Committing here, without
    // waiting for a lock, saves two thread hops on every MCP answer that waits for its run.
    if (this.unsettled.length === 0 && !this.checkpointing && this.commitHere(batch)) return;
    const numbered = { ...batch, id: ++this.posted };
    this.unsettled.push(numbered);
    // One string crosses to the worker far faster than a structured clone of hundreds of small arrays.
    this.send({ type: 'write', batch: JSON.stringify(numbered) });
  }

  settled(): Promise<void> {
    if (this.fallback) return this.fallback.settled();
    const id = this.posted;
    if (Atomics.load(this.state, SETTLED) >= id) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  sync(): void {
    if (this.fallback) return this.fallback.sync();
    const deadline = performance.now() + MAX_SYNC_BLOCK_MS;
    for (;;) {
      if (Atomics.load(this.state, STATE) === -1) return this.useFallback().sync();
      const settled = Atomics.load(this.state, SETTLED);
      if (settled >= this.posted) return this.forgetSettled();
      const left = deadline - performance.now();
      if (left <= 0) {
        report('run records are still waiting for the database; reading without them');
        return;
      }
      Atomics.wait(this.state, SETTLED, settled, Math.min(left, 100));
    }
  }

  close(): void {
    this.hereConnection?.close();
    if (this.fallback) return this.fallback.close();
    this.send({ type: 'close' });
    const deadline = performance.now() + CLOSE_TIMEOUT_MS;
    while (Atomics.load(this.state, STATE) === 0 && performance.now() < deadline) {
      Atomics.wait(this.state, STATE, 0, 100);
    }
    if (Atomics.load(this.state, STATE) === -1) this.useFallback().close();
    void this.worker?.terminate();
  }

  /**
   * Commits on the main connection if that needs no waiting: busy_timeout is
   * 0 for the attempt, so a lock held by anyone (another process, the worker)
   * hands the batch to the worker instead of blocking this thread.
   */
  private commitHere(batch: RunWriteBatch): boolean {
    if (this.here === null) return false;
    if (!this.here) {
      // A connection of its own that never waits (busy_timeout 0): the main connection keeps waiting for
      // locks as editor saves need, and no pragma is switched back and forth on every answer.
      try {
        this.hereConnection = new Database(this.sqlite.name, {
          timeout: 0,
          ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
        });
      } catch {
        this.here = null; // The worker (or its inline fallback) writes everything.
        return false;
      }
      configureConnection(this.hereConnection);
      this.hereConnection.pragma('busy_timeout = 0');
      // Its commits never checkpoint (that copies pages and syncs): the worker does, every CHECKPOINT_EVERY of them.
      this.hereConnection.pragma('wal_autocheckpoint = 0');
      this.here = createBatchCommitter(this.hereConnection, RUN_STATEMENTS, {
        onBusy: () => undefined,
        onFailed: (failed) =>
          reportFailed(
            failed.map(({ write, error }) => ({ write, message: error.message })),
            this.onDropped,
          ),
      });
    }
    if (this.here.tryCommit(batch) !== 'committed') return false;
    if (++this.commitsHere % CHECKPOINT_EVERY === 0) {
      // Until it is done, batches queue behind it on the worker: commits here would keep the WAL from starting over.
      this.checkpointing = true;
      this.send({ type: 'checkpoint' });
    }
    return true;
  }

  private send(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  /** Resolves the callers waiting for batches up to `settled`. */
  private wake(settled: number): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.id <= settled) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  private forgetSettled(): void {
    const settled = Atomics.load(this.state, SETTLED);
    let done = 0;
    while (done < this.unsettled.length && (this.unsettled[done]?.id ?? Infinity) <= settled) done++;
    if (done > 0) this.unsettled = this.unsettled.slice(done);
  }

  private useFallback(): InlineRunWriter {
    if (!this.fallback) {
      this.fallback = new InlineRunWriter(this.sqlite, this.onDropped);
      this.forgetSettled();
      for (const batch of this.unsettled) this.fallback.write(batch);
      this.unsettled = [];
    }
    return this.fallback;
  }
}
