import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unpackedPath } from '../model/unpacked-path';
import { BacklogGuard } from './backlog-guard';
import { BUSY_TIMEOUT_MS, configureConnection } from './connection';
import { createBatchCommitter, type BatchCommitter } from './run-batches';
import { forgetJournals, JOURNAL_TOKEN, journalMark, journalOfBatch, markedJournal, RunJournal } from './run-journal';
import { RUN_SQL, type RunWrite, type RunWriteBatch } from './run-statements';
import { runIdOf } from './run-writes';
import type { FromWorker, ToWorker, WriterWorkerData } from './run-writer.worker';

/** Where run records go once the group-commit queue hands them over. */
export interface RunWriter {
  /** Hands a batch over; it is committed now (inline) or soon on the writer's thread (background). */
  write(batch: RunWriteBatch): void;
  /**
   * True while nobody needs to wait for a commit before answering for a
   * batch: every batch handed over is durable as soon as `write` returns (it
   * is in this process's run journal, see run-journal.ts), and the writer is
   * not left behind by a saturated core (see BacklogGuard).
   */
  readonly journaled: boolean;
  /** Resolves once every batch handed over so far is committed (or reported as failed). Never blocks. */
  settled(): Promise<void>;
  /**
   * Blocks until every batch handed over is committed, at most MAX_SYNC_BLOCK_MS:
   * reads in this process see what it recorded unless the database is locked that long.
   * False when it stopped waiting: a read then may miss records this process made.
   */
  sync(): boolean;
  /**
   * True while a batch handed over and not yet committed has records of this
   * run: what a read finds of it may be out of date, or missing.
   */
  waitsFor(runId: string): boolean;
  /** Commits what is left (waiting for a locked database up to its busy timeout) and lets go. */
  close(): void;
}

/** A write that failed for a reason waiting does not fix, with why. */
export interface DroppedWrite {
  write: RunWrite;
  message: string;
  /**
   * Not committed, but kept in this process's run journal: its batch was
   * refused whole, and the journal's replay stores it once the database
   * takes writes again (see run-writer.worker.ts).
   */
  kept?: boolean;
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
/** Where scripts/build-node.mjs puts the worker (`npm ci` runs it); in a packaged app, the unpacked file. */
export const WORKER_SCRIPT = pathToFileURL(
  unpackedPath(fileURLToPath(new URL('../../out/worker/run-writer.worker.mjs', import.meta.url))),
);

const report = (message: string) => process.stderr.write(`flowbench: ${message}\n`);

/** Says which records were lost and why, and hands back the snapshots to store again. */
function reportFailed(failed: readonly DroppedWrite[], onDropped: OnDropped): void {
  const skipped = failed.filter((f) => !f.kept);
  const kept = failed.filter((f) => f.kept && markedJournal(f.write) === undefined);
  if (skipped[0]) report(`${skipped.length} run record write(s) failed and were skipped: ${skipped[0].message}`);
  if (kept[0]) report(`${kept.length} run record write(s) were not committed: ${kept[0].message}`);
  onDropped(failed);
}

/**
 * How long a journaled batch waits before the worker is woken to commit it
 * (and the others by then). Nothing waits for that commit: the batch is
 * durable in the journal, and a read in this process that needs it posts it
 * at once (see `sync`, `settled`). 2 ms (the old figure) woke the worker
 * every few one-at-a-time MCP calls, and each wake cost the answering thread
 * more than the commit saved: a timer, a post, a settled message back, and
 * its caches refilled after SQLite's work on a shared core. Measured with
 * sequential stdio calls, all of a server's threads on one core, alternating
 * with the same server at 2 ms: main thread 142–167 µs a call at 2 ms,
 * 115–132 at 50–100; the writer's thread 40–43 µs, 23–25; p50 189–196 µs,
 * 157–166 (a bare SDK server 108–113). Another process sees a run that much
 * later, at most.
 */
const POST_AFTER_MS = 50;
/**
 * Most characters of batches one message to the worker carries. The batches of
 * 50 ms of calls joined into one string (about 400 KB at 900 calls) were a
 * large object on both threads, in memory the OS had to map afresh each time
 * (on these VMs a page touched for the first time costs about 12 µs). In a
 * micro-benchmark of 60 posts of 900 batches of 431 characters to a worker
 * that parses them, one post took 1.6–1.9 ms (median) whole and 0.4–0.6 ms
 * in messages of 32 K characters; the process's CPU 504–575 ms against
 * 315–358, its page faults 19 k against 8–9 k. flowbench mcp at 50 callers
 * showed no difference past this machine's noise.
 */
const POST_CHUNK_CHARS = 32 * 1024;
/** How often a host looks for journals left by processes that are gone (see run-journal.ts). */
const RECOVER_EVERY_MS = 3_000;

/** Commits on the main connection, on the caller's thread. For short-lived commands and tests. */
export class InlineRunWriter implements RunWriter {
  private readonly committer: BatchCommitter<RunWriteBatch>;
  private waiters: (() => void)[] = [];

  readonly journaled = false;

  constructor(sqlite: Database.Database, onDropped: OnDropped) {
    this.committer = createBatchCommitter(sqlite, RUN_SQL, {
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

  sync(): boolean {
    return this.committer.drain();
  }

  waitsFor(runId: string): boolean {
    return this.committer.pending.some((batch) => batch.writes.some((write) => runIdOf(write) === runId));
  }

  close(): void {
    this.sync();
    this.committer.stop();
  }

  get pendingCount(): number {
    return this.committer.pendingCount;
  }
}

interface NumberedBatch extends RunWriteBatch {
  id: number;
}

/**
 * A batch handed to the worker and not yet committed: its id and its JSON
 * (the line the worker gets), parsed again only if the worker fails. Kept as
 * one string rather than the batch's dozens of small arrays: when a busy
 * core starves the worker, thousands wait here, and the garbage collector
 * traced every array of each of them again and again.
 */
interface Unsettled {
  id: number;
  line: string;
  /** When it was handed over (performance.now()). */
  at: number;
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
  private unsettled: Unsettled[] = [];
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
  /** Where batches go before the worker commits them; undefined where no journal can be written. */
  private journal: RunJournal | undefined;
  /**
   * A commit succeeded since the last one that failed: until one has, a
   * journaled batch may still be one the database refuses (a read-only
   * file), so answers wait for commits as without a journal.
   */
  private committing = false;
  /** An append failed (a full disk): batches are no longer journaled, and answers wait for commits. */
  private journalBroken = false;
  /** The last batch whose settled message (after its failures, if any) this thread has handled. */
  private settledSeen = 0;
  /** The last batch posted without the journal. */
  private lastUnjournaled = 0;
  private recoverTimer: NodeJS.Timeout | undefined;
  /** Journaled batches (their JSON) waiting to be posted to the worker; see `write`. */
  private unposted: string[] = [];
  private postTimer: NodeJS.Timeout | undefined;
  /** Makes answers wait for commits when a saturated core starves the worker (see BacklogGuard). */
  private readonly backlog: BacklogGuard;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly onDropped: OnDropped,
    options: { nativeBinding?: string; script?: URL; maxBacklogMs?: number } = {},
  ) {
    this.nativeBinding = options.nativeBinding;
    this.backlog = new BacklogGuard(options.maxBacklogMs);
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
      sql: RUN_SQL,
      signals: this.state.buffer,
      journalToken: JOURNAL_TOKEN,
    };
    // Whatever the thread prints (a module a user's NODE_OPTIONS loads into every thread) goes to
    // stderr: `flowbench mcp`'s stdout carries the protocol and nothing else.
    this.worker = new Worker(script, { workerData, stdout: true });
    this.worker.stdout.pipe(process.stderr);
    // Pending batches are settled by `close`, not by keeping the process alive.
    this.worker.unref();
    let failedBeforeSettled = false;
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'failed') {
        failedBeforeSettled = true;
        // A journal with a batch the database refused is left for a replay, and no longer appended to.
        const refused = message.failed.flatMap((f) => (f.kept ? (markedJournal(f.write) ?? []) : []));
        if (refused.length > 0) this.journal?.hold(refused);
        reportFailed(message.failed, onDropped);
      } else if (message.type === 'checkpointed') this.checkpointing = false;
      else {
        // A batch's failures are posted before it is settled.
        this.committing = !failedBeforeSettled;
        failedBeforeSettled = false;
        this.settledSeen = message.id;
        this.wake(message.id);
        const released = this.journal?.release(message.id) ?? [];
        if (released.length > 0) this.send({ type: 'forget', journals: released });
      }
    });
    this.journal = RunJournal.open(sqlite.name);
    if (this.journal) {
      // A host that outlives another (the editor beside a killed `flowbench mcp`) stores what it journaled.
      this.recoverTimer = setInterval(() => {
        // The batches of a held journal reach the worker before its replay does.
        this.postUnposted();
        this.send({ type: 'recover', held: this.journal?.heldLeft() ?? [] });
      }, RECOVER_EVERY_MS);
      this.recoverTimer.unref();
    }
    this.worker.on('error', (error) => {
      report(`the background run writer stopped (${error.message}); writing run records inline`);
      void this.useFallback()
        .settled()
        .then(() => this.wake(Infinity));
    });
  }

  get journaled(): boolean {
    if (this.journal === undefined || this.journalBroken || !this.committing || this.fallback) return false;
    // A batch posted without the journal (before commits succeeded again) is durable only once settled.
    if (this.settledSeen < this.lastUnjournaled) return false;
    // Asked twice on every answer: the list is trimmed only when its first entry looks too old.
    if (!this.backlog.behind(this.unsettled[0]?.at)) return true;
    this.forgetSettled();
    return !this.backlog.behind(this.unsettled[0]?.at);
  }

  write(batch: RunWriteBatch): void {
    if (this.fallback) return this.fallback.write(batch);
    this.forgetSettled();
    // Without a journal, answers wait for commits: the common case (the database free, the worker
    // idle) commits here, without waiting for a lock, and saves two thread hops on each of them.
    if (!this.journal && this.unsettled.length === 0 && !this.checkpointing && this.commitHere(batch)) return;
    const id = ++this.posted;
    // Journaled only while commits succeed: until one has (or since one failed) answers wait for
    // commits anyway, and a database that refuses writes would leave a journal per batch behind.
    const journal = this.journal && !this.journalBroken && this.committing ? this.journal : undefined;
    const numbered: NumberedBatch = journal
      ? { id, writes: [...batch.writes, journalMark(journal.current, id)] }
      : { ...batch, id };
    // One string crosses to the worker far faster than a structured clone of hundreds of small arrays.
    let line = JSON.stringify(numbered);
    const now = performance.now();
    this.backlog.sample(now);
    if (journal) {
      if (journal.append(id, line)) {
        this.unsettled.push({ id, line, at: now });
        // Durable already: the worker is woken for it a little later, with whatever else comes meanwhile.
        // Waking it for each answer cost the answering thread more than the append (and one commit each).
        this.unposted.push(line);
        this.postTimer ??= setTimeout(() => this.postUnposted(), POST_AFTER_MS);
        return;
      }
      this.journalBroken = true;
      // Not in the journal: without its mark, so that nothing takes it for a journaled batch.
      line = JSON.stringify({ ...batch, id });
    }
    this.lastUnjournaled = id;
    this.unsettled.push({ id, line, at: now });
    this.postUnposted();
    this.send({ type: 'write', batches: line });
  }

  /**
   * Hands the journaled batches not yet posted to the worker, in messages of
   * about POST_CHUNK_CHARS each (the worker commits the messages of one turn
   * together all the same).
   */
  private postUnposted(): void {
    clearTimeout(this.postTimer);
    this.postTimer = undefined;
    const lines = this.unposted;
    if (lines.length === 0) return;
    this.unposted = [];
    let from = 0;
    let chars = 0;
    for (let i = 0; i < lines.length; i++) {
      chars += (lines[i] as string).length + 1;
      if (chars < POST_CHUNK_CHARS && i < lines.length - 1) continue;
      this.send({ type: 'write', batches: lines.slice(from, i + 1).join('\n') });
      from = i + 1;
      chars = 0;
    }
  }

  settled(): Promise<void> {
    if (this.fallback) return this.fallback.settled();
    this.postUnposted();
    const id = this.posted;
    // Not the shared counter: it runs ahead of the failures the worker posts before it, and an answer
    // must know whether its run was stored.
    if (this.settledSeen >= id) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  sync(): boolean {
    if (this.fallback) return this.fallback.sync();
    this.postUnposted();
    const deadline = performance.now() + MAX_SYNC_BLOCK_MS;
    for (;;) {
      if (Atomics.load(this.state, STATE) === -1) return this.useFallback().sync();
      const settled = Atomics.load(this.state, SETTLED);
      if (settled >= this.posted) {
        this.forgetSettled();
        return true;
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        report('run records are still waiting for the database; reading without them');
        return false;
      }
      Atomics.wait(this.state, SETTLED, settled, Math.min(left, 100));
    }
  }

  waitsFor(runId: string): boolean {
    if (this.fallback) return this.fallback.waitsFor(runId);
    this.forgetSettled();
    // A batch's JSON has each run id as a string; a run named in another's data (a parent's) only makes this careful.
    const quoted = JSON.stringify(runId);
    return this.unsettled.some(({ line }) => line.includes(quoted));
  }

  close(): void {
    clearInterval(this.recoverTimer);
    this.hereConnection?.close();
    if (this.fallback) {
      this.fallback.close();
    } else {
      this.send({ type: 'close' });
      const deadline = performance.now() + CLOSE_TIMEOUT_MS;
      while (Atomics.load(this.state, STATE) === 0 && performance.now() < deadline) {
        Atomics.wait(this.state, STATE, 0, 100);
      }
      if (Atomics.load(this.state, STATE) === -1) this.useFallback().close();
      void this.worker?.terminate();
    }
    this.closeJournal();
  }

  /** Removes the journal once everything in it is committed; otherwise leaves it for the next process to replay. */
  private closeJournal(): void {
    if (!this.journal) return;
    if (this.journal.heldLeft().length > 0) {
      report(
        'run records the database refused are left in the run journal; the next Flowbench to open the database stores them',
      );
    }
    const allCommitted = this.fallback
      ? this.fallback.pendingCount === 0
      : Atomics.load(this.state, SETTLED) >= this.posted;
    if (!allCommitted) {
      report('run records are left in the run journal; the next Flowbench to open the database stores them');
      return this.journal.keep();
    }
    const names = this.journal.remove();
    try {
      forgetJournals(this.sqlite, names);
    } catch {
      // Marks of removed journals are never read again; a locked database can keep them.
    }
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
      this.here = createBatchCommitter(this.hereConnection, RUN_SQL, {
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
    // Whatever the worker is asked next, it has every batch handed over before it.
    if (message.type !== 'write' && this.unposted.length > 0) this.postUnposted();
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
      for (const { line } of this.unsettled) {
        const batch = JSON.parse(line) as NumberedBatch;
        const journal = journalOfBatch(batch);
        // A held journal's batches wait for its replay: committed here, they would move its mark past the refused one.
        if (journal !== undefined && this.journal?.isHeld(journal)) continue;
        this.fallback.write(batch);
      }
      this.unsettled = [];
      this.unposted = [];
      clearTimeout(this.postTimer);
    }
    return this.fallback;
  }
}
