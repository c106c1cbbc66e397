import { createHash } from 'node:crypto';
import { and, asc, desc, eq, like, sql } from 'drizzle-orm';
import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { RunEvent, RunRecord, RunSummary, RunTrigger, StepRecord, StepStatus } from '../model/run';
import type { FlowbenchDatabase, Db } from './database';
import type { RunWrite, RunWriteBatch } from './run-statements';
import { BackgroundRunWriter, InlineRunWriter, type RunWriter } from './run-writer';
import { runSteps, runs, snapshots } from './schema';

export interface RunStart {
  runId: string;
  flow: Flow;
  flowVersion?: number;
  inputs: Record<string, unknown>;
  trigger: RunTrigger;
  client?: string;
  startedAt: number;
}

/** Longest a run event waits before it is written (see `enqueue`). */
export const GROUP_COMMIT_MS = 5;
/** A queue this long is written at once, whatever the time. */
const MAX_QUEUED_EVENTS = 2000;

/** A run being recorded: its start (until written) and the order its steps appeared in. */
export interface RecordedRun {
  start?: RunStart;
  seq: Map<string, number>;
}

export type { RunSummary } from '../model/run';

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

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? undefined : new Date(ms).toISOString();

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RunRepositoryOptions {
  /**
   * Commit run records on a worker thread (long-lived hosts: the MCP server,
   * `serve`, the app) instead of on the caller's thread (commands, tests).
   */
  background?: boolean;
  nativeBinding?: string;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Stores runs and their steps; the engine's events are the only input. */
export class RunRepository {
  private readonly db: Db;
  private readonly writer: RunWriter;
  /** Snapshots this process already stored, so a repeated run skips the insert. */
  private readonly storedSnapshots = new Set<string>();
  /** Events waiting for the next group commit, each with the run it belongs to; see `enqueue`. */
  private queued: RunEvent[] = [];
  private queuedRuns: RecordedRun[] = [];
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(database: FlowbenchDatabase, options: RunRepositoryOptions = {}) {
    this.db = database.db;
    const forget = (hashes: readonly string[]) => hashes.forEach((h) => this.storedSnapshots.delete(h));
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
    this.flushTimer ??= setTimeout(() => this.commit(), GROUP_COMMIT_MS);
  }

  /** Hands the queue to the writer and waits until it is in the database. */
  flush(): void {
    this.commit();
    this.writer.sync();
  }

  /** Flushes and stops the writer; the repository is not used afterwards. */
  close(): void {
    this.commit();
    this.writer.close();
  }

  /** Hands the queue to the writer as one batch. */
  private commit(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
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
    this.writer.write(batch);
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
      ],
    ]);
  }

  /** Marks runs whose process is gone (a crash, a killed terminal) as interrupted. */
  markInterrupted(): number {
    this.flush();
    const running = this.db
      .select({ id: runs.id, pid: runs.hostPid })
      .from(runs)
      .where(eq(runs.status, 'running'))
      .all();
    const dead = running.filter((r) => r.pid !== process.pid && !isProcessAlive(r.pid));
    for (const run of dead) {
      this.db
        .update(runs)
        .set({
          status: 'interrupted',
          errorCode: 'INTERNAL_ERROR',
          errorMessage: 'Flowbench stopped while this run was going',
          finishedAt: Date.now(),
        })
        .where(eq(runs.id, run.id))
        .run();
      this.db
        .update(runSteps)
        .set({
          status: 'cancelled',
          errorCode: 'CANCELLED',
          errorMessage: 'Flowbench stopped while this step was running',
        })
        .where(and(eq(runSteps.runId, run.id), eq(runSteps.status, 'running')))
        .run();
    }
    return dead.length;
  }

  /** A run with its steps; accepts a unique id prefix of 6+ characters. Throws RUN_NOT_FOUND. */
  get(ref: string): RunRecord {
    this.flush();
    const row =
      this.db.select().from(runs).where(eq(runs.id, ref)).get() ??
      (ref.length >= 6 ? this.uniqueByPrefix(ref) : undefined);
    if (!row) throw new FlowbenchError('RUN_NOT_FOUND', `no run has the id "${ref}"`, { ref });
    const steps = this.db.select().from(runSteps).where(eq(runSteps.runId, row.id)).orderBy(asc(runSteps.seq)).all();
    return {
      ...summaryOf(row),
      inputs: row.inputs,
      ...(row.output ? { output: row.output } : {}),
      steps: steps.map((s): StepRecord => ({
        nodeId: s.nodeId,
        status: s.status,
        attempts: s.attempts,
        ...(s.input !== null ? { input: s.input } : {}),
        ...(s.output !== null ? { output: s.output } : {}),
        ...(s.errorCode ? { error: { code: s.errorCode, message: s.errorMessage ?? '' } } : {}),
        ...(s.usage ? { usage: s.usage } : {}),
        ...(s.messages ? { messages: s.messages } : {}),
        ...(s.startedAt ? { startedAt: iso(s.startedAt) } : {}),
        ...(s.finishedAt ? { finishedAt: iso(s.finishedAt) } : {}),
        ...(s.startedAt && s.finishedAt ? { durationMs: s.finishedAt - s.startedAt } : {}),
      })),
    };
  }

  private uniqueByPrefix(prefix: string) {
    const rows = this.db
      .select()
      .from(runs)
      .where(like(runs.id, `${prefix.replace(/[%_]/g, '')}%`))
      .limit(2)
      .all();
    return rows.length === 1 ? rows[0] : undefined;
  }

  /** The flow snapshot a run ran. */
  snapshot(runId: string): Flow {
    this.flush();
    const row = this.db
      .select({ body: snapshots.body })
      .from(runs)
      .innerJoin(snapshots, eq(runs.snapshotHash, snapshots.hash))
      .where(eq(runs.id, runId))
      .get();
    if (!row) throw new FlowbenchError('RUN_NOT_FOUND', `no run has the id "${runId}"`);
    return row.body;
  }

  /** Newest first. */
  list(options: { flowId?: string; limit?: number } = {}): RunSummary[] {
    this.flush();
    const query = this.db.select().from(runs);
    const filtered = options.flowId ? query.where(eq(runs.flowId, options.flowId)) : query;
    return filtered
      .orderBy(desc(runs.startedAt))
      .limit(options.limit ?? 50)
      .all()
      .map(summaryOf);
  }

  count(): number {
    this.flush();
    return (
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(runs)
        .get()?.n ?? 0
    );
  }
}

/** A step's position in the run: the order its node first appeared. */
function seqOf(run: RecordedRun, nodeId: string): number {
  let seq = run.seq.get(nodeId);
  if (seq === undefined) {
    seq = run.seq.size;
    run.seq.set(nodeId, seq);
  }
  return seq;
}

/** An upsertStep write; `null` leaves what an earlier event of the step stored (see the statement). */
function stepWrite(
  event: RunEvent & { nodeId: string },
  run: RecordedRun,
  status: StepStatus,
  step: {
    attempts?: number;
    input?: unknown;
    output?: unknown;
    errorCode?: string;
    errorMessage?: string;
    usage?: unknown;
    messages?: unknown;
    startedAt?: number;
    finishedAt?: number | null;
  },
): RunWrite {
  return [
    'upsertStep',
    [
      event.runId,
      event.nodeId,
      seqOf(run, event.nodeId),
      status,
      step.attempts ?? 0,
      json(step.input),
      json(step.output),
      step.errorCode ?? null,
      step.errorMessage ?? null,
      json(step.usage),
      json(step.messages),
      step.startedAt ?? null,
      step.finishedAt ?? null,
    ],
  ];
}

/** The write one engine event makes, if any. */
function eventWrite(event: RunEvent, run: RecordedRun): RunWrite | undefined {
  switch (event.type) {
    case 'node.started':
      return stepWrite(event, run, 'running', { attempts: event.attempt, startedAt: event.at });
    case 'node.finished':
      return stepWrite(event, run, 'succeeded', {
        attempts: event.attempts,
        input: event.input,
        output: event.output,
        usage: event.usage,
        messages: event.messages,
        finishedAt: event.at,
      });
    case 'node.failed':
      return stepWrite(event, run, event.willRetry ? 'running' : 'failed', {
        attempts: event.attempt,
        input: event.input,
        errorCode: event.error.code,
        errorMessage: event.error.message,
        messages: event.messages,
        finishedAt: event.willRetry ? null : event.at,
      });
    case 'node.skipped':
      return stepWrite(event, run, 'skipped', { finishedAt: event.at });
    case 'node.cancelled':
      return stepWrite(event, run, 'cancelled', {
        errorCode: 'CANCELLED',
        errorMessage: 'the run ended before this node finished',
        finishedAt: event.at,
      });
    case 'run.finished':
      return [
        'finishRun',
        [
          event.status,
          json(event.output),
          event.error?.code ?? null,
          event.error?.message ?? null,
          event.error?.nodeId ?? null,
          event.at,
          event.durationMs,
          event.runId,
        ],
      ];
    case 'run.started':
    case 'node.token':
      return undefined;
  }
}

function summaryOf(row: typeof runs.$inferSelect): RunSummary {
  return {
    id: row.id,
    flowId: row.flowId,
    flowName: row.flowName,
    ...(row.flowVersion !== null ? { flowVersion: row.flowVersion } : {}),
    trigger: row.trigger,
    ...(row.client ? { client: row.client } : {}),
    status: row.status,
    ...(row.errorCode
      ? {
          error: {
            code: row.errorCode,
            message: row.errorMessage ?? '',
            ...(row.errorNodeId ? { nodeId: row.errorNodeId } : {}),
          },
        }
      : {}),
    startedAt: iso(row.startedAt) as string,
    ...(row.finishedAt ? { finishedAt: iso(row.finishedAt) } : {}),
    ...(row.durationMs !== null ? { durationMs: row.durationMs } : {}),
  };
}
