import type { Table } from 'drizzle-orm';
import type { runJournals, runSteps, runs, snapshots } from './schema';

/**
 * The columns each run statement binds, in order, and the shapes of the
 * writes that carry their values: what the run writer's thread needs to
 * commit writes, without the Drizzle schema the statements' SQL is built
 * from (run-statements.ts). The worker gets that SQL from the main thread;
 * loading the schema (Drizzle, zod, the flow model) was most of its 1 MB
 * bundle and of its start. Drizzle and the schema are imported for their
 * types alone, so a renamed or missing column still fails to compile here.
 */

export type KeysOf<T extends Table> = readonly (keyof T['_']['columns'] & string)[];

export const SNAPSHOT_KEYS = ['hash', 'body', 'createdAt'] as const satisfies KeysOf<typeof snapshots>;
export const RUN_START_KEYS = [
  'id',
  'flowId',
  'flowName',
  'flowVersion',
  'snapshotHash',
  'inputs',
  'trigger',
  'client',
  'hostPid',
  'startedAt',
  'reuse',
  'parentRunId',
  'traceparent',
  'toNodeId',
  'conversation',
] as const satisfies KeysOf<typeof runs>;
export const RUN_FINISH_KEYS = [
  'status',
  'output',
  'errorCode',
  'errorMessage',
  'errorNodeId',
  'finishedAt',
  'durationMs',
] as const satisfies KeysOf<typeof runs>;
export const STEP_KEYS = [
  'runId',
  'nodeId',
  'seq',
  'status',
  'attempts',
  'input',
  'output',
  'errorCode',
  'errorMessage',
  'usage',
  'messages',
  'startedAt',
  'finishedAt',
  'retries',
  'toolCalls',
  'childRunId',
  'iteration',
  'origin',
  'warnings',
] as const satisfies KeysOf<typeof runSteps>;

export const JOURNAL_KEYS = ['journal', 'committedBatch'] as const satisfies KeysOf<typeof runJournals>;

/**
 * The values only some steps have (a model call's usage, a failure's error,
 * an agent's tool calls). Most steps (a template's, an input's, a
 * condition's, any node's start) have none of them, and are written with the
 * other keys alone (see bulkStepWriter in run-batches.ts): binding a parameter is most of a
 * row's cost, and a step row has 18.
 */
const OPTIONAL_STEP_KEYS: readonly string[] = [
  'errorCode',
  'errorMessage',
  'usage',
  'messages',
  'retries',
  'toolCalls',
  'childRunId',
  'origin',
] satisfies KeysOf<typeof runSteps>;

/** The keys of a plain step: every step key but the optional ones, in STEP_KEYS' order. */
export const PLAIN_STEP_KEYS: KeysOf<typeof runSteps> = STEP_KEYS.filter((key) => !OPTIONAL_STEP_KEYS.includes(key));

export type RunStatementName =
  'insertSnapshot' | 'insertRun' | 'insertFinishedRun' | 'finishRun' | 'upsertStep' | 'markJournal';

type SqlValue = string | number | null;
/** One value per key of a key list, in its order. */
type ValuesFor<Keys extends readonly unknown[]> = { -readonly [K in keyof Keys]: SqlValue };
/** The positional parameters of each statement, one per key above. */
export interface RunStatementParams {
  insertSnapshot: ValuesFor<typeof SNAPSHOT_KEYS>;
  insertRun: ValuesFor<typeof RUN_START_KEYS>;
  insertFinishedRun: [...ValuesFor<typeof RUN_START_KEYS>, ...ValuesFor<typeof RUN_FINISH_KEYS>];
  finishRun: [...ValuesFor<typeof RUN_FINISH_KEYS>, id: string];
  upsertStep: ValuesFor<typeof STEP_KEYS>;
  markJournal: ValuesFor<typeof JOURNAL_KEYS>;
}

/** One statement to run with its parameters (plain data: it may cross to a worker). */
export type RunWrite = { [N in RunStatementName]: [statement: N, params: RunStatementParams[N]] }[RunStatementName];

/** Writes that belong together: one commit of the group-commit queue. */
export interface RunWriteBatch {
  writes: RunWrite[];
}

/** The SQL that closes the runs of a process that stopped (see interrupted-runs.ts). */
export interface InterruptSql {
  /** The runs still marked running, with the process running each (`id`, `pid`). */
  running: string;
  /** Parameters: error code, message, finish time, run id. */
  closeRun: string;
  /** Parameters: message, run id. */
  closeSteps: string;
}

/** The SQL the run writers prepare: each statement's, and the plain step upsert (see bulkStepWriter in run-batches.ts). */
export interface RunSql {
  statements: Readonly<Record<RunStatementName, string>>;
  plainStepUpsert: string;
  interrupt: InterruptSql;
}
