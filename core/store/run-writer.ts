import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS } from './connection.mjs';
import { createBatchCommitter, type BatchCommitter } from './run-batches.mjs';
import { RUN_STATEMENTS, type RunWrite, type RunWriteBatch } from './run-statements';

/** Where run records go once the group-commit queue hands them over. */
export interface RunWriter {
  /** Hands a batch over; it is committed now (inline) or soon on the writer's thread (background). */
  write(batch: RunWriteBatch): void;
  /** Returns once every batch handed over is committed, or the database stayed locked too long. */
  sync(): void;
  /** Syncs and lets go of the writer's resources. */
  close(): void;
}

/** Snapshot hashes whose write failed: the repository stores those snapshots again with a later run. */
export type OnDropped = (snapshots: readonly string[]) => void;

const report = (message: string) => process.stderr.write(`flowbench: ${message}\n`);

/** Says which records were lost and why, and hands back the snapshots to store again. */
function reportFailed(failed: readonly { write: RunWrite; message: string }[], onDropped: OnDropped): void {
  const first = failed[0];
  if (!first) return;
  report(`${failed.length} run record write(s) failed and were skipped: ${first.message}`);
  onDropped(failed.filter((f) => f.write[0] === 'insertSnapshot').map((f) => String(f.write[1][0])));
}

/** Commits on the main connection, on the caller's thread. For short-lived commands and tests. */
export class InlineRunWriter implements RunWriter {
  private readonly committer: BatchCommitter<RunWriteBatch>;

  constructor(sqlite: Database.Database, onDropped: OnDropped) {
    this.committer = createBatchCommitter(sqlite, RUN_STATEMENTS, {
      onBusy: (error) => report(`run records wait for the database: ${error.message}`),
      onFailed: (failed) =>
        reportFailed(
          failed.map(({ write, error }) => ({ write, message: error.message })),
          onDropped,
        ),
    });
  }

  write(batch: RunWriteBatch): void {
    this.committer.add(batch);
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

/** How long a read waits for the background writer: past busy_timeout, so a lock held that long is the cause. */
const SYNC_TIMEOUT_MS = BUSY_TIMEOUT_MS + 2_000;
const SETTLED = 0;
const STATE = 1;

/**
 * Commits on a worker thread with its own connection. The main thread only
 * posts batches; `sync` blocks on shared memory until the worker has
 * committed them, so reads in this process still see every run it recorded.
 * If the worker cannot start, the batches it did not settle are written inline.
 */
export class BackgroundRunWriter implements RunWriter {
  private readonly worker: Worker | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private unsettled: NumberedBatch[] = [];
  private posted = 0;
  private fallback: InlineRunWriter | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly onDropped: OnDropped,
    options: { nativeBinding?: string; script?: URL } = {},
  ) {
    const script = options.script ?? new URL('./run-writer.worker.mjs', import.meta.url);
    // A build that left the worker out writes inline rather than stall the first read.
    if (!existsSync(fileURLToPath(script))) {
      report(`the background run writer is missing (${script.href}); writing run records inline`);
      this.fallback = new InlineRunWriter(sqlite, onDropped);
      return;
    }
    this.worker = new Worker(script, {
      workerData: {
        path: sqlite.name,
        nativeBinding: options.nativeBinding,
        statements: RUN_STATEMENTS,
        signals: this.state.buffer,
      },
    });
    // Pending batches are settled by `close`, not by keeping the process alive.
    this.worker.unref();
    this.worker.on('message', (message: { type: string; failed: { write: RunWrite; message: string }[] }) => {
      if (message.type === 'failed') reportFailed(message.failed, onDropped);
    });
    this.worker.on('error', (error) => {
      report(`the background run writer stopped (${error.message}); writing run records inline`);
      this.useFallback();
    });
  }

  write(batch: RunWriteBatch): void {
    if (this.fallback) return this.fallback.write(batch);
    const numbered = { ...batch, id: ++this.posted };
    this.forgetSettled();
    this.unsettled.push(numbered);
    // One string crosses to the worker far faster than a structured clone of hundreds of small arrays.
    this.worker?.postMessage({ type: 'write', batch: JSON.stringify(numbered) });
  }

  sync(): void {
    if (this.fallback) return this.fallback.sync();
    const deadline = performance.now() + SYNC_TIMEOUT_MS;
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
    this.sync();
    if (this.fallback) return this.fallback.close();
    this.worker?.postMessage({ type: 'close' });
    const deadline = performance.now() + SYNC_TIMEOUT_MS;
    while (Atomics.load(this.state, STATE) === 0 && performance.now() < deadline) {
      Atomics.wait(this.state, STATE, 0, 100);
    }
    void this.worker?.terminate();
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
