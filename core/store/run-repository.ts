import { createHash } from 'node:crypto';
import { and, asc, desc, eq, like, sql } from 'drizzle-orm';
import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { RunEvent, RunRecord, RunSummary, RunTrigger, StepRecord, StepStatus } from '../model/run';
import type { FlowbenchDatabase, Db } from './database';
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
const MAX_QUEUED_BATCHES = 500;

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

/** Stores runs and their steps; the engine's events are the only input. */
export class RunRepository {
  private readonly db: Db;
  private readonly upsertStep;
  private readonly insertSnapshot;
  private readonly insertRun;
  private readonly finishRun;
  /** Snapshots this process already stored, so a repeated run skips the insert. */
  private readonly storedSnapshots = new Set<string>();
  /** Writes waiting for the next turn of the event loop; see `enqueue`. */
  private queue: { start?: RunStart; events: RunEvent[]; seqOf: (nodeId: string) => number }[] = [];
  private isFlushScheduled = false;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly database: FlowbenchDatabase) {
    this.db = database.db;
    // The hot path (every run, every step) uses statements prepared once: building
    // them through the query builder on every call cost more than the run itself.
    this.insertSnapshot = database.sqlite.prepare(
      'INSERT OR IGNORE INTO snapshots (hash, body, created_at) VALUES (?, ?, ?)',
    );
    this.insertRun = database.sqlite.prepare(`
      INSERT INTO runs (id, flow_id, flow_name, flow_version, snapshot_hash, inputs, trigger, client, status, host_pid, started_at)
      VALUES (@id, @flowId, @flowName, @flowVersion, @hash, @inputs, @trigger, @client, 'running', @pid, @startedAt)`);
    this.finishRun = database.sqlite.prepare(`
      UPDATE runs SET status = @status, output = @output, error_code = @errorCode, error_message = @errorMessage,
        error_node_id = @errorNodeId, finished_at = @finishedAt, duration_ms = @durationMs
      WHERE id = @id`);
    this.upsertStep = database.sqlite.prepare(`
      INSERT INTO run_steps (run_id, node_id, seq, status, attempts, input, output, error_code, error_message, usage, messages, started_at, finished_at)
      VALUES (@runId, @nodeId, @seq, @status, @attempts, @input, @output, @errorCode, @errorMessage, @usage, @messages, @startedAt, @finishedAt)
      ON CONFLICT (run_id, node_id) DO UPDATE SET
        status = excluded.status,
        attempts = max(run_steps.attempts, excluded.attempts),
        input = coalesce(excluded.input, run_steps.input),
        output = coalesce(excluded.output, run_steps.output),
        error_code = excluded.error_code,
        error_message = excluded.error_message,
        usage = coalesce(excluded.usage, run_steps.usage),
        messages = coalesce(excluded.messages, run_steps.messages),
        started_at = coalesce(run_steps.started_at, excluded.started_at),
        finished_at = excluded.finished_at`);
  }

  /** Records a run's start with its flow snapshot (stored once per distinct flow content). */
  start(run: RunStart): void {
    this.database.sqlite.transaction(() => this.insertStart(run))();
  }

  private insertStart(run: RunStart): void {
    const hash = snapshotHash(run.flow);
    if (!this.storedSnapshots.has(hash)) {
      this.insertSnapshot.run(hash, JSON.stringify(run.flow), run.startedAt);
      this.storedSnapshots.add(hash);
    }
    this.insertRun.run({
      id: run.runId,
      flowId: run.flow.id,
      flowName: run.flow.name,
      flowVersion: run.flowVersion ?? null,
      hash,
      inputs: JSON.stringify(run.inputs),
      trigger: run.trigger,
      client: run.client ?? null,
      pid: process.pid,
      startedAt: run.startedAt,
    });
  }

  /**
   * Queues a run's events; the queue is written as one transaction at most
   * GROUP_COMMIT_MS later (group commit). An MCP answer or a CLI line is not
   * held up by the disk, and many runs share one commit. Reads in this process
   * flush first, and `close` of the services writes what is left.
   */
  enqueue(events: readonly RunEvent[], seqOf: (nodeId: string) => number, start?: RunStart): void {
    this.queue.push({ events: [...events], seqOf, ...(start ? { start } : {}) });
    if (this.queue.length >= MAX_QUEUED_BATCHES) return this.flush();
    if (this.isFlushScheduled) return;
    this.scheduleFlush(GROUP_COMMIT_MS);
  }

  private scheduleFlush(delayMs: number): void {
    this.isFlushScheduled = true;
    this.flushTimer = setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        // The database stayed locked past busy_timeout (another process holds a long
        // write): keep the records and try again rather than lose them or crash.
        process.stderr.write(`flowbench: run records wait for the database: ${(error as Error).message}\n`);
        this.scheduleFlush(1000);
      }
    }, delayMs);
  }

  /** Writes every queued event now. */
  flush(): void {
    this.isFlushScheduled = false;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.queue.length === 0) return;
    const batches = this.queue;
    this.queue = [];
    try {
      this.database.sqlite.transaction(() => {
        for (const batch of batches) {
          if (batch.start) this.insertStart(batch.start);
          for (const event of batch.events) this.applyOne(event, batch.seqOf);
        }
      })();
    } catch (error) {
      // The transaction rolled back: nothing of it was written, so all of it waits again.
      this.queue = [...batches, ...this.queue];
      for (const batch of batches) if (batch.start) this.storedSnapshots.delete(snapshotHash(batch.start.flow));
      throw error;
    }
  }

  private applyOne(event: RunEvent, seqOf: (nodeId: string) => number): void {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const step = (nodeId: string, status: StepStatus, fields: Record<string, unknown>) =>
      this.upsertStep.run({
        runId: event.runId,
        nodeId,
        seq: seqOf(nodeId),
        status,
        attempts: 0,
        input: null,
        output: null,
        errorCode: null,
        errorMessage: null,
        usage: null,
        messages: null,
        startedAt: null,
        finishedAt: null,
        ...fields,
      });
    switch (event.type) {
      case 'node.started':
        return void step(event.nodeId, 'running', { attempts: event.attempt, startedAt: event.at });
      case 'node.finished':
        return void step(event.nodeId, 'succeeded', {
          attempts: event.attempts,
          input: json(event.input),
          output: json(event.output),
          usage: json(event.usage),
          messages: json(event.messages),
          finishedAt: event.at,
        });
      case 'node.failed':
        return void step(event.nodeId, event.willRetry ? 'running' : 'failed', {
          attempts: event.attempt,
          input: json(event.input),
          errorCode: event.error.code,
          errorMessage: event.error.message,
          messages: json(event.messages),
          finishedAt: event.willRetry ? null : event.at,
        });
      case 'node.skipped':
        return void step(event.nodeId, 'skipped', { finishedAt: event.at });
      case 'node.cancelled':
        return void step(event.nodeId, 'cancelled', {
          errorCode: 'CANCELLED',
          errorMessage: 'the run ended before this node finished',
          finishedAt: event.at,
        });
      case 'run.finished':
        return void this.finishRun.run({
          id: event.runId,
          status: event.status,
          output: json(event.output),
          errorCode: event.error?.code ?? null,
          errorMessage: event.error?.message ?? null,
          errorNodeId: event.error?.nodeId ?? null,
          finishedAt: event.at,
          durationMs: event.durationMs,
        });
      case 'run.started':
      case 'node.token':
        return;
    }
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
