import { createHash } from 'node:crypto';
import type { Flow } from '../model/flow';
import type { RunEvent, RunReuse, RunTrigger } from '../model/run';
import type { FlowbenchDatabase } from './database';
import type { RunWriteBatch } from './run-statements';
import { BackgroundRunWriter, InlineRunWriter, type DroppedWrite, type RunWriter } from './run-writer';
import { eventWrite, mergeWrites, runIdOf, type RecordedRun } from './run-writes';

export type { RecordedRun } from './run-writes';

export interface RunStart {
  runId: string;
  flow: Flow;
  flowVersion?: number;
  inputs: Record<string, unknown>;
  trigger: RunTrigger;
  client?: string;
  startedAt: number;
  reuse?: RunReuse;
  toNodeId?: string;
  parentRunId?: string;
  traceparent?: string;
  conversation?: string;
}

/** Longest a run event waits before it is written (see `enqueue`). */
export const GROUP_COMMIT_MS = 5;
const DURABLE = Promise.resolve();
/**
 * A queue this long is written at once, whatever the time. Queued events live
 * until their commit, and every scavenge of the garbage collector meanwhile
 * copies them: at 2,000, a 1,000-node run's events survived to the end of the
 * run. Measured with that run recorded 240 times (its steps written inline):
 * 501 ms of scavenges and 6 full collections at 2,000, 279 ms and 3 at 500,
 * and the run took 6.4–7.0 ms instead of 7.2–11.6 (five processes each,
 * alternating); at 250 the extra commits cost more than they saved.
 */
const MAX_QUEUED_EVENTS = 500;

// Hashing a big snapshot on every run would cost more than the run; flows are immutable once loaded.
const hashes = new WeakMap<Flow, string>();
function snapshotHash(flow: Flow): string {
  let hash = hashes.get(flow);
  if (!hash) {
    hash = createHash('sha256').update(JSON.stringify(flow)).digest('hex');
    hashes.set(flow, hash);
  }
  return hash;
}

export interface RunLogOptions {
  /**
   * Commit run records on a worker thread (long-lived hosts: the MCP server,
   * `serve`, the app) instead of on the caller's thread (commands, tests).
   */
  background?: boolean;
  nativeBinding?: string;
}

/**
 * The write side of run records: the engine's events, queued and handed to a
 * writer in group commits. Reads go through RunRepository, which flushes this
 * log first.
 */
export class RunLog {
  private readonly writer: RunWriter;
  /** Snapshots this process already stored, so a repeated run skips the insert. */
  private readonly storedSnapshots = new Set<string>();
  /** Events waiting for the next group commit, each with the run it belongs to; see `enqueue`. */
  private queued: RunEvent[] = [];
  private queuedRuns: RecordedRun[] = [];
  /** The group commit's timer; kept, fired, until its commit has run (see onFlushTimer). */
  private flushTimer: NodeJS.Timeout | undefined;
  private flushImmediate: NodeJS.Immediate | undefined;
  /** Runs some of whose records could not be written, with why; see `unstoredReason`. */
  private readonly unstored = new Map<string, string>();
  /** The hand-over `durable` scheduled for the runs ending in this turn of the event loop, shared by their callers. */
  private durableCommit: Promise<void> | undefined;

  constructor(database: FlowbenchDatabase, options: RunLogOptions = {}) {
    const forget = (dropped: readonly DroppedWrite[]) => {
      for (const { write, message } of dropped) {
        if (write[0] === 'insertSnapshot') this.storedSnapshots.delete(write[1][0] as string);
        else if (write[0] !== 'markJournal') this.unstored.set(runIdOf(write), message);
      }
    };
    this.writer =
      options.background && !database.sqlite.memory
        ? new BackgroundRunWriter(database.sqlite, forget, options)
        : new InlineRunWriter(database.sqlite, forget);
  }

  /** Records a run's start with its flow snapshot (stored once per distinct flow content). */
  start(run: RunStart): void {
    this.commit();
    const batch: RunWriteBatch = { writes: [] };
    this.startWrites(run, batch);
    this.writer.write(batch);
    this.writer.sync();
  }

  /**
   * Queues a run's events; the queue is handed to the writer as one batch at
   * most GROUP_COMMIT_MS later (group commit), so an MCP answer or a CLI line
   * is not held up by the disk and many runs share one commit. Reads in this
   * process flush first, and `close` writes what is left.
   */
  enqueue(event: RunEvent, run: RecordedRun): void {
    this.queued.push(event);
    this.queuedRuns.push(run);
    if (this.queued.length >= MAX_QUEUED_EVENTS) return this.commit();
    // One timer serves every run until it fires: a commit before then (a host's `durable`, after each
    // MCP call) leaves it to find the queue empty. A timer made and cleared for each call cost 1 µs.
    this.flushTimer ??= setTimeout(this.onFlushTimer, GROUP_COMMIT_MS);
  }

  /**
   * The commit runs after the I/O this turn of the event loop has waiting
   * (timers come before it), not before: a run's first model requests,
   * made while the timer was due, were held by the commit before their
   * connections were seen open and the requests written. In a new
   * `flowbench run` (its commits are on its thread) a 3×3 flow's first
   * requests reached the model server 33.0 ms after the run started instead
   * of 38.2 (medians of 20 runs each way, alternating).
   */
  private readonly onFlushTimer = () => {
    this.flushImmediate = setImmediate(this.onFlushImmediate);
  };

  private readonly onFlushImmediate = () => {
    this.flushTimer = undefined;
    this.flushImmediate = undefined;
    this.commit();
  };

  /**
   * Resolves once everything queued so far is committed, however long the
   * writer's thread takes to start on a loaded machine: `flush` blocks for
   * MAX_SYNC_BLOCK_MS at most and then reads without the records.
   */
  committed(): Promise<void> {
    this.commit();
    return this.writer.settled();
  }

  /**
   * Hands the queue to the writer and waits until it is in the database; false
   * when the wait was cut short (see RunWriter.sync) and some records are not yet.
   */
  flush(): boolean {
    this.commit();
    return this.writer.sync();
  }

  /** True while records of this run wait to be written (after a `flush` that gave up): a read of it may be out of date. */
  waitsFor(runId: string): boolean {
    this.commit();
    return this.writer.waitsFor(runId);
  }

  /**
   * Resolves once every event queued so far is durable: what a host awaits
   * before it answers for a run, so that a result sent means its run is
   * stored. With a run journal that is as soon as they are handed over;
   * without one, once they are committed (runs that finish in the same turn
   * of the event loop share one commit). The caller's thread never waits for
   * the disk or a lock.
   */
  durable(): Promise<void> {
    if (this.queued.length === 0) return this.writer.journaled ? DURABLE : this.writer.settled();
    this.durableCommit ??= new Promise((resolve, reject) => {
      const handOver = () => this.commitForDurable(resolve, reject);
      // Journaled, once every run that ended in this turn has asked: one append for all of them (the
      // runs a 2026-07-28 stdio client's concurrent calls end together otherwise took one write(2)
      // each). Otherwise after the turn's I/O too, as the answers wait for the commit anyway.
      if (this.writer.journaled) process.nextTick(handOver);
      else setImmediate(handOver);
    });
    return this.durableCommit;
  }

  /**
   * Hands the queue over for `durable`'s callers: durable at once in the run
   * journal (see run-journal.ts), else once committed (no journal, or a full
   * disk since).
   */
  private commitForDurable(resolve: (done: Promise<void> | undefined) => void, reject: (error: unknown) => void): void {
    this.durableCommit = undefined;
    try {
      this.commit();
      resolve(this.writer.journaled ? undefined : this.writer.settled());
    } catch (error) {
      reject(error);
    }
  }

  /**
   * Why a run's records could not all be written (a read-only or full
   * database), once `durable` has settled; undefined when they were. Asking
   * forgets the answer.
   */
  unstoredReason(runId: string): string | undefined {
    const reason = this.unstored.get(runId);
    this.unstored.delete(runId);
    return reason;
  }

  /** Flushes and stops the writer; the log is not used afterwards. */
  close(): void {
    clearTimeout(this.flushTimer);
    clearImmediate(this.flushImmediate);
    this.flushTimer = undefined;
    this.flushImmediate = undefined;
    this.commit();
    this.writer.close();
  }

  /** Hands the queue to the writer as one batch. */
  private commit(): void {
    if (this.queued.length === 0) return;
    const batch: RunWriteBatch = { writes: [] };
    for (let i = 0; i < this.queued.length; i++) {
      const run = this.queuedRuns[i] as RecordedRun;
      if (run.start) {
        this.startWrites(run.start, batch);
        run.start = undefined;
      }
      const write = eventWrite(this.queued[i] as RunEvent, run);
      if (write) batch.writes.push(write);
    }
    this.queued = [];
    this.queuedRuns = [];
    this.writer.write({ writes: mergeWrites(batch.writes) });
  }

  private startWrites(run: RunStart, batch: RunWriteBatch): void {
    const hash = snapshotHash(run.flow);
    if (!this.storedSnapshots.has(hash)) {
      batch.writes.push(['insertSnapshot', [hash, JSON.stringify(run.flow), run.startedAt]]);
      this.storedSnapshots.add(hash);
    }
    batch.writes.push([
      'insertRun',
      [
        run.runId,
        run.flow.id,
        run.flow.name,
        run.flowVersion ?? null,
        hash,
        JSON.stringify(run.inputs),
        run.trigger,
        run.client ?? null,
        process.pid,
        run.startedAt,
        run.reuse ? JSON.stringify(run.reuse) : null,
        run.parentRunId ?? null,
        run.traceparent ?? null,
        run.toNodeId ?? null,
        run.conversation ?? null,
      ],
    ]);
  }
}
