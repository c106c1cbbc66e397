import { and, asc, desc, eq, inArray, like, or, sql } from 'drizzle-orm';
import { FlowbenchError } from '../model/errors';
import { isoTime } from '../model/iso-time';
import type { Flow } from '../model/flow';
import { totalUsage } from '../model/pricing';
import type { RunRecord, RunStatus, RunSummary, RunTrigger, StepRecord } from '../model/run';
import { WRITE_TRANSACTION, type Db, type FlowbenchDatabase } from './database';
import { closeRunsOfStoppedProcesses } from './interrupted-runs';
import type { RunLog } from './run-log';
import { RUN_SQL } from './run-statements';
import { runSteps, runs, snapshots } from './schema';

export type { RunSummary } from '../model/run';

export interface RunListOptions {
  flowId?: string;
  trigger?: RunTrigger;
  status?: RunStatus;
  limit?: number;
  offset?: number;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? undefined : isoTime(ms));

/** A read that would leave out, or show out of date, records this process has not written yet. */
function notWrittenYet(what: string, details: Record<string, unknown> = {}): FlowbenchError {
  return new FlowbenchError(
    'DATABASE_BUSY',
    `${what}: the latest run records are still being written; try again`,
    details,
  );
}

/**
 * RUN_NOT_FOUND, unless records of this process's runs were still waiting to
 * be written (`complete` false: the writer's thread is behind on a loaded
 * machine): the run may be among them, and saying it does not exist would be wrong.
 */
function runNotFound(ref: string, complete: boolean): FlowbenchError {
  if (complete) return new FlowbenchError('RUN_NOT_FOUND', `no run has the id "${ref}"`, { ref });
  return notWrittenYet(`run "${ref}" is not in the database yet`, { ref });
}

/** Reads stored runs and their steps. Writes go through the RunLog; each read flushes it first. */
export class RunRepository {
  private readonly db: Db;
  private readonly sqlite: FlowbenchDatabase['sqlite'];

  constructor(
    database: FlowbenchDatabase,
    private readonly log: RunLog,
  ) {
    this.db = database.db;
    this.sqlite = database.sqlite;
  }

  /** Closes the runs whose process is gone (a crash, a killed terminal) as interrupted (see interrupted-runs.ts). */
  markInterrupted(): number {
    this.log.flush();
    return closeRunsOfStoppedProcesses(this.sqlite, RUN_SQL.interrupt);
  }

  /**
   * A run with its steps; accepts a unique start or end of its id of 6+
   * characters (the end is the short form the editor and the CLI show). Throws RUN_NOT_FOUND.
   */
  get(ref: string): RunRecord {
    const complete = this.log.flush();
    // A whole id (the usual case) reads the row at once; a short form finds its id first.
    const row =
      this.db.select().from(runs).where(eq(runs.id, ref)).get() ??
      this.db
        .select()
        .from(runs)
        .where(eq(runs.id, this.idOf(ref, complete)))
        .get();
    if (!row) throw runNotFound(ref, complete);
    // Found, but its last records (its steps, its end) may be among those still waiting.
    if (!complete && this.log.waitsFor(row.id))
      throw notWrittenYet(`run "${ref}" is not all in the database yet`, { ref });
    const steps = this.db.select().from(runSteps).where(eq(runSteps.runId, row.id)).orderBy(asc(runSteps.seq)).all();
    const usage = totalUsage(steps.map((s) => s.usage ?? undefined));
    return {
      ...summaryOf(row),
      ...(usage ? { usage } : {}),
      inputs: row.inputs,
      ...(row.output ? { output: row.output } : {}),
      steps: steps.map((s): StepRecord => ({
        nodeId: s.nodeId,
        ...(s.iteration > 1 ? { iteration: s.iteration } : {}),
        status: s.status,
        attempts: s.attempts,
        ...(s.input !== null ? { input: s.input } : {}),
        ...(s.output !== null ? { output: s.output } : {}),
        ...(s.errorCode ? { error: { code: s.errorCode, message: s.errorMessage ?? '' } } : {}),
        ...(s.usage ? { usage: s.usage } : {}),
        ...(s.messages ? { messages: s.messages } : {}),
        ...(s.retries ? { retries: s.retries } : {}),
        ...(s.toolCalls ? { toolCalls: s.toolCalls } : {}),
        ...(s.childRunId ? { childRunId: s.childRunId } : {}),
        ...(s.warnings ? { warnings: s.warnings } : {}),
        ...(s.origin === 'passed-over' ? { passedOver: true as const } : {}),
        ...(s.origin === 'pinned' ? { pinned: true as const } : {}),
        ...(s.startedAt ? { startedAt: iso(s.startedAt) } : {}),
        ...(s.finishedAt ? { finishedAt: iso(s.finishedAt) } : {}),
        ...(s.startedAt && s.finishedAt ? { durationMs: s.finishedAt - s.startedAt } : {}),
      })),
    };
  }

  /**
   * The id of the run `ref` names (an id, or a unique start or end of one, see
   * `get`), read without the run's columns: its inputs and output can be megabytes.
   */
  private idOf(ref: string, complete: boolean): string {
    const exact = this.db.select({ id: runs.id }).from(runs).where(eq(runs.id, ref)).get();
    const id = exact?.id ?? (ref.length >= 6 ? this.uniqueIdByPart(ref) : undefined);
    if (id === undefined) throw runNotFound(ref, complete);
    return id;
  }

  /** The id of the one run whose id starts or ends with `part`; undefined when none or several do. */
  private uniqueIdByPart(part: string): string | undefined {
    const literal = part.replace(/[%_]/g, '');
    const rows = this.db
      .select({ id: runs.id })
      .from(runs)
      .where(or(like(runs.id, `${literal}%`), like(runs.id, `%${literal}`)))
      .limit(2)
      .all();
    return rows.length === 1 ? rows[0]?.id : undefined;
  }

  /**
   * The flow snapshot a run ran (`ref` as `get` takes it). Stored with the
   * run's first record, so records still waiting do not change it. The editor
   * read the whole run, its steps' outputs and all, only to find its id.
   */
  snapshot(ref: string): Flow {
    const complete = this.log.flush();
    const runId = this.idOf(ref, complete);
    const row = this.db
      .select({ body: snapshots.body })
      .from(runs)
      .innerJoin(snapshots, eq(runs.snapshotHash, snapshots.hash))
      .where(eq(runs.id, runId))
      .get();
    if (!row) throw runNotFound(ref, complete);
    // Snapshots stored before flows had sticky notes have none.
    return { ...row.body, notes: row.body.notes ?? [] };
  }

  /** The median time of the flow's last 20 successful runs, or undefined before it has any. */
  typicalDurationMs(flowId: string): number | undefined {
    const durations = this.db
      .select({ ms: runs.durationMs })
      .from(runs)
      .where(and(eq(runs.flowId, flowId), eq(runs.status, 'succeeded')))
      .orderBy(desc(runs.startedAt))
      .limit(20)
      .all()
      .flatMap((r) => (r.ms === null ? [] : [r.ms]))
      .sort((a, b) => a - b);
    return durations.length > 0 ? durations[Math.floor(durations.length / 2)] : undefined;
  }

  /** Newest first, filtered by flow, trigger and status; `offset` pages on. Each with its tokens and cost. */
  list(options: RunListOptions = {}): RunSummary[] {
    // A list without the runs still waiting would look complete and not be.
    if (!this.log.flush()) throw notWrittenYet('the runs cannot be listed yet');
    const filters = [
      options.flowId ? eq(runs.flowId, options.flowId) : undefined,
      options.trigger ? eq(runs.trigger, options.trigger) : undefined,
      options.status ? eq(runs.status, options.status) : undefined,
    ].filter((f) => f !== undefined);
    const stepTotal = (path: string) =>
      sql<
        number | null
      >`(SELECT sum(json_extract(${runSteps.usage}, ${path})) FROM ${runSteps} WHERE ${runSteps.runId} = ${runs.id})`;
    return this.db
      .select({
        run: runs,
        inputTokens: stepTotal('$.inputTokens'),
        outputTokens: stepTotal('$.outputTokens'),
        cost: stepTotal('$.cost'),
      })
      .from(runs)
      .where(filters.length > 0 ? and(...filters) : undefined)
      .orderBy(desc(runs.startedAt))
      .limit(options.limit ?? 50)
      .offset(options.offset ?? 0)
      .all()
      .map(({ run, inputTokens, outputTokens, cost }) => ({
        ...summaryOf(run),
        ...(inputTokens !== null || outputTokens !== null
          ? {
              usage: {
                inputTokens: inputTokens ?? 0,
                outputTokens: outputTokens ?? 0,
                ...(cost !== null ? { cost } : {}),
              },
            }
          : {}),
      }));
  }

  /** Deletes runs (their steps go with them); ids that are not there are skipped. Returns how many went. */
  delete(ids: readonly string[]): number {
    const complete = this.log.flush();
    if (ids.length === 0) return 0;
    // Deleted now, a run whose records are still waiting would come back once they are written.
    const waiting = complete ? undefined : ids.find((id) => this.log.waitsFor(id));
    if (waiting !== undefined) throw notWrittenYet(`run "${waiting}" cannot be deleted yet`, { ref: waiting });
    return this.db.transaction(
      () =>
        this.db
          .delete(runs)
          .where(inArray(runs.id, [...ids]))
          .run().changes,
      WRITE_TRANSACTION,
    );
  }

  count(): number {
    this.log.flush();
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
    ...(row.traceparent ? { traceparent: row.traceparent } : {}),
    ...(row.conversation ? { conversation: row.conversation } : {}),
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
    ...(row.reuse ? { reuse: row.reuse } : {}),
    ...(row.toNodeId ? { toNodeId: row.toNodeId } : {}),
    ...(row.parentRunId ? { parentRunId: row.parentRunId } : {}),
  };
}
