/**
 * The background run writer: commits run records on its own connection, so
 * the thread that answers MCP calls and API requests never waits for the
 * disk or for another process's write lock. Built to out/worker/ by
 * scripts/build-node.mjs (a worker does not inherit tsx's loader); see
 * run-writer.ts for the other side.
 *
 * Shared state (Int32Array over workerData.signals): [0] the id of the last
 * batch settled, [1] 1 once closed, -1 if the worker could not start.
 * Each settled batch is also posted back, for callers awaiting it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RunStatementName, RunWrite, RunWriteBatch } from './run-statements';

export interface WriterWorkerData {
  path: string;
  nativeBinding?: string;
  statements: Record<RunStatementName, string>;
  signals: SharedArrayBuffer;
}

export type ToWorker = { type: 'write'; batch: string } | { type: 'checkpoint' } | { type: 'close' };
export type FromWorker =
  | { type: 'settled'; id: number }
  | { type: 'failed'; failed: { write: RunWrite; message: string }[] }
  | { type: 'checkpointed' };

interface NumberedBatch extends RunWriteBatch {
  id: number;
}

const { path, nativeBinding, statements, signals } = workerData as WriterWorkerData;
const state = new Int32Array(signals);
const port = parentPort;
const report = (message: string) => process.stderr.write(`flowbench: ${message}\n`);
const signal = (index: number, value: number) => {
  Atomics.store(state, index, value);
  Atomics.notify(state, index);
};
/** Longest a checkpoint waits for readers of the WAL, holding writers off meanwhile. */
const CHECKPOINT_WAIT_MS = 100;
const post = (message: FromWorker) => port?.postMessage(message);

try {
  // Loaded inside the try: a database the worker cannot open (a missing native build) sets the failure flag at once.
  const { createBatchCommitter } = await import('./run-batches');
  const { BUSY_TIMEOUT_MS, configureConnection } = await import('./connection');
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  configureConnection(db);
  const committer = createBatchCommitter<NumberedBatch>(db, statements, {
    onBusy: (error) => report(`run records wait for the database: ${error.message}`),
    // The main thread reports them: it knows which snapshots to store again.
    onFailed: (failed) =>
      post({ type: 'failed', failed: failed.map(({ write, error }) => ({ write, message: error.message })) }),
    onSettled: (batch) => {
      signal(0, batch.id);
      post({ type: 'settled', id: batch.id });
    },
  });
  /**
   * RESTART, not PASSIVE: while a passive checkpoint copies, commits go on,
   * so the WAL never starts over and grows without end (80 MB after 3,000
   * runs). The main thread stops committing until it is told the checkpoint
   * is done; RESTART holds other writers off until the WAL can start again.
   * Its wait for them and for readers is capped, so another process's long
   * read delays writes by at most CHECKPOINT_WAIT_MS (the next checkpoint
   * tries again). Its fsync happens here, not on the main thread.
   */
  const checkpoint = () => {
    db.pragma(`busy_timeout = ${CHECKPOINT_WAIT_MS}`);
    try {
      db.pragma('wal_checkpoint(RESTART)');
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      post({ type: 'checkpointed' });
    }
  };
  port?.on('message', (message: ToWorker) => {
    if (message.type === 'write') return committer.add(JSON.parse(message.batch) as NumberedBatch);
    if (message.type === 'checkpoint') return checkpoint();
    committer.drain();
    committer.stop();
    db.close();
    signal(1, 1);
  });
} catch (error) {
  signal(1, -1);
  Atomics.notify(state, 0);
  throw error;
}
