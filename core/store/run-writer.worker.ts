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
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { RunSql, RunWrite, RunWriteBatch } from './run-statement-keys';

export interface WriterWorkerData {
  path: string;
  nativeBinding?: string;
  /** The statements' SQL, built from the schema on the main thread (see run-statement-keys.ts). */
  sql: RunSql;
  signals: SharedArrayBuffer;
  /** The main thread's journal token: this thread's copy of run-journal.ts has one of its own (see JOURNAL_TOKEN). */
  journalToken: string;
}

export type ToWorker =
  /** Batches to commit: their JSON, one a line. */
  | { type: 'write'; batches: string }
  | { type: 'checkpoint' }
  | { type: 'close' }
  /** Replay the run journals of processes that are gone, and the main thread's held ones (see recoverJournals). */
  | { type: 'recover'; held: string[] }
  /** These journals are removed, all committed: their marks can go. */
  | { type: 'forget'; journals: string[] };
export type FromWorker =
  | { type: 'settled'; id: number }
  | { type: 'failed'; failed: { write: RunWrite; message: string; kept?: boolean }[] }
  | { type: 'checkpointed' };

interface NumberedBatch extends RunWriteBatch {
  id: number;
}

/** The batches that arrived in one turn, committed as one (see commitArrived). */
interface MergedBatch extends NumberedBatch {
  /** The batches merged; `writes` holds their write objects, less the marks merged away. */
  parts: NumberedBatch[];
  /** Which journal each write came from, worked out when a failure first needs it (see journalsOf). */
  journalOf?: Map<RunWrite, string>;
}

const { path, nativeBinding, sql, signals, journalToken } = workerData as WriterWorkerData;
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

/**
 * How much this thread yields (a nice value; see lowerPriority). Not 19, the
 * lowest: other processes starve a thread that low. Beside a browser and
 * test runners keeping two cores busy, commits at 19 came up to 12 s late,
 * and a read of a run just started (it waits for them a second at most)
 * took it for one that does not exist; at 10 they came 0.5 s late at most (0.6 s at 0).
 * The stdio bench's ratios were the same at 10 and 19 within its noise (p50
 * 1.98× against 1.83× and 1.96×, calls/s at 50 callers 0.67× against 0.72× and 0.69×).
 */
const WRITER_NICE = 10;

/**
 * Makes this thread yield to the one that answers: a commit it was woken for
 * then waits for the answering thread to be idle instead of preempting it on
 * a shared core (on two cores under load, every post to this thread held up
 * the call being answered by the length of a commit). What it commits is
 * usually in the run journal already, so a later commit loses nothing; where
 * answers wait for commits instead (before a first commit succeeded, or with
 * no journal), that wait grows while the answering thread keeps the core
 * busy. Linux only: a thread's own nice value, set through its thread id;
 * elsewhere the thread keeps the process's priority.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId)) setPriority(threadId, WRITER_NICE);
  } catch {
    // No /proc, or not allowed: the thread runs at the process's priority.
  }
}

try {
  // Loaded inside the try: a database the worker cannot open (a missing native build) sets the failure flag at once.
  const { createBatchCommitter } = await import('./run-batches');
  const { BUSY_TIMEOUT_MS, configureConnection } = await import('./connection');
  const { forgetJournals, journalOfBatch, markedJournal, recoverJournals } = await import('./run-journal');
  const { closeRunsOfStoppedProcesses } = await import('./interrupted-runs');
  const { default: Database } = await import('better-sqlite3');
  /**
   * The writes of batches arriving together, in order, with one mark per
   * journal, the last (a mark stores the highest batch id it is given, so
   * the others change nothing). Each journaled batch ends with its own mark:
   * 200 calls' batches made 200 upserts of the same row, and one commit cost
   * the writer's thread 11.2–11.6 µs a call with them, 8.7–9.2 with one (a
   * micro-benchmark of the worker's commit, 6,000 recorded flowbench mcp calls,
   * batches of 200; that also dropped a WeakMap of every write's journal).
   */
  function oneMarkPerJournal(batches: readonly NumberedBatch[]): RunWrite[] {
    const writes: RunWrite[] = [];
    const marks = new Map<string, RunWrite>();
    for (const batch of batches) {
      for (const write of batch.writes) {
        const journal = markedJournal(write);
        if (journal === undefined) writes.push(write);
        else marks.set(journal, write);
      }
    }
    for (const mark of marks.values()) writes.push(mark);
    return writes;
  }

  /** The journal each journaled write of a merged batch came from: only a failure asks, so it is worked out then. */
  function journalsOf(batch: MergedBatch): Map<RunWrite, string> {
    if (!batch.journalOf) {
      batch.journalOf = new Map();
      for (const part of batch.parts) {
        const journal = journalOfBatch(part);
        if (journal !== undefined) for (const write of part.writes) batch.journalOf.set(write, journal);
      }
    }
    return batch.journalOf;
  }
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  configureConnection(db);
  // Only now: starting (loading modules, opening the database) takes far longer than a commit, and a
  // host's first answers wait for the first commit (see `journaled` in run-writer.ts).
  lowerPriority();
  /**
   * Run journals one of whose batches the database refused whole (a full disk, an I/O error): their
   * later batches are refused too, so each one's mark stays before the refused batch, and the replay
   * that stores the journal once the database takes writes again stores them all, once.
   */
  const refusedJournals = new Set<string>();
  /** The batch being committed (set right before each attempt): what onFailed's writes belong to. */
  let committing: MergedBatch | undefined;
  const keptNote = 'kept in the run journal, stored once the database takes writes again';
  const committer = createBatchCommitter<MergedBatch>(db, sql, {
    onBusy: (error) => report(`run records wait for the database: ${error.message}`),
    // The main thread reports them: it knows which snapshots to store again.
    onFailed: (failed, whole) => {
      for (const { write } of failed) {
        const journal = whole ? markedJournal(write) : undefined;
        if (journal !== undefined) refusedJournals.add(journal);
      }
      const journalOf = whole && committing ? journalsOf(committing) : undefined;
      post({
        type: 'failed',
        failed: failed.map(({ write, error }) =>
          journalOf?.has(write)
            ? { write, message: `${error.message} (${keptNote})`, kept: true }
            : { write, message: error.message },
        ),
      });
    },
    // At commit time, not on arrival: a batch that waited behind the refused one (a retry) is refused too.
    beforeCommit: (batch) => {
      committing = batch;
      if (refusedJournals.size === 0) return;
      const journalOf = journalsOf(batch);
      const refused = new Set(batch.writes.filter((write) => refusedJournals.has(journalOf.get(write) ?? '')));
      if (refused.size === 0) return;
      batch.writes = batch.writes.filter((write) => !refused.has(write));
      const message = `the database refused an earlier batch of its run journal (${keptNote})`;
      const failed = [...refused].filter((write) => markedJournal(write) === undefined);
      post({ type: 'failed', failed: failed.map((write) => ({ write, message, kept: true })) });
    },
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
  /**
   * Batches that arrived in one turn of this thread's loop, committed
   * together: under many concurrent calls, one commit serves many answers.
   */
  let arrived: NumberedBatch[] = [];
  const commitArrived = () => {
    const batches = arrived;
    arrived = [];
    if (batches.length === 0) return;
    const last = batches[batches.length - 1] as NumberedBatch;
    committer.add({ id: last.id, writes: oneMarkPerJournal(batches), parts: batches });
  };
  /** What the last replay failed with: said once, not every few seconds while the database refuses writes. */
  let recoverFailure: string | undefined;
  const recover = (held: string[]) => {
    try {
      const stored = recoverJournals(db, sql.statements, held, journalToken);
      recoverFailure = undefined;
      if (stored > 0)
        report(
          `stored ${stored} batch(es) of run records from run journals (of a Flowbench that stopped, or the database refused before)`,
        );
      // Then what a process that stopped meanwhile left running: this host's editor shows it ended, not running for ever.
      const closed = closeRunsOfStoppedProcesses(db, sql.interrupt);
      if (closed > 0) report(`closed ${closed} run(s) of a Flowbench process that stopped as interrupted`);
    } catch (error) {
      const failure = (error as Error).message;
      if (failure !== recoverFailure) report(`run journals wait for the next try (every few seconds): ${failure}`);
      recoverFailure = failure;
    }
  };
  port?.on('message', (message: ToWorker) => {
    if (message.type === 'write') {
      if (arrived.length === 0) setImmediate(commitArrived);
      for (const line of message.batches.split('\n')) arrived.push(JSON.parse(line) as NumberedBatch);
      return;
    }
    commitArrived();
    if (message.type === 'checkpoint') return checkpoint();
    if (message.type === 'recover') return recover(message.held);
    if (message.type === 'forget') return forgetJournals(db, message.journals);
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
