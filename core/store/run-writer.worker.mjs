/**
 * The background run writer: commits run records on its own connection, so
 * the thread that answers MCP calls and API requests never waits for the
 * disk or for another process's write lock. Plain JavaScript: a worker does
 * not inherit the TypeScript loader. See run-writer.ts for the other side.
 *
 * Shared state (Int32Array over workerData.signals): [0] the id of the last
 * batch settled, [1] 1 once closed, -1 if the worker could not start.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { path, nativeBinding, statements, signals } = workerData;
const state = new Int32Array(signals);
const report = (message) => process.stderr.write(`flowbench: ${message}\n`);
const signal = (index, value) => {
  Atomics.store(state, index, value);
  Atomics.notify(state, index);
};

try {
  // Dynamic imports: a missing module sets the failure flag at once instead of stalling sync().
  const { createBatchCommitter } = await import('./run-batches.mjs');
  const { configureConnection } = await import('./connection.mjs');
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  configureConnection(db);
  const committer = createBatchCommitter(db, statements, {
    onBusy: (error) => report(`run records wait for the database: ${error.message}`),
    // The main thread reports them: it knows which snapshots to store again.
    onFailed: (failed) =>
      parentPort.postMessage({
        type: 'failed',
        failed: failed.map(({ write, error }) => ({ write, message: error.message })),
      }),
    onSettled: (batch) => signal(0, batch.id),
  });
  parentPort.on('message', (message) => {
    if (message.type === 'write') return committer.add(JSON.parse(message.batch));
    if (message.type === 'close') {
      committer.drain();
      committer.stop();
      db.close();
      signal(1, 1);
    }
  });
} catch (error) {
  signal(1, -1);
  Atomics.notify(state, 0);
  throw error;
}
