import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import {
  type InterruptSql,
  JOURNAL_KEYS,
  PLAIN_STEP_KEYS,
  RUN_FINISH_KEYS,
  RUN_START_KEYS,
  SNAPSHOT_KEYS,
  STEP_KEYS,
  type KeysOf,
  type RunSql,
  type RunStatementName,
} from './run-statement-keys';
import { runJournals, runSteps, runs, snapshots } from './schema';

export * from './run-statement-keys';

/**
 * The statements that record runs, by name, generated from the Drizzle
 * schema: each lists schema keys, so a renamed or missing column fails to
 * compile here instead of failing at run time. Both run writers prepare them:
 * the inline one on the main connection, the background one on its own.
 * Parameters are positional, in the order of the key lists: a write's values
 * cross to the worker as a plain array, the cheapest thing to copy.
 */

const columnName = <T extends Table>(table: T, key: keyof T['_']['columns'] & string): string => {
  const column = (getTableColumns(table) as Record<string, { name: string }>)[key];
  if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
  return column.name;
};

/** `INSERT INTO t (a, b) VALUES (?, ?)` for the keys given, with `fixed` columns set to SQL literals. */
function insert<T extends Table>(
  table: T,
  keys: KeysOf<T>,
  fixed: Partial<Record<keyof T['_']['columns'], string>> = {},
) {
  const fixedKeys = Object.keys(fixed) as (keyof T['_']['columns'] & string)[];
  const names = [...keys, ...fixedKeys].map((key) => columnName(table, key));
  const values = [...keys.map(() => '?'), ...fixedKeys.map((key) => fixed[key] as string)];
  return `INSERT INTO ${getTableName(table)} (${names.join(', ')}) VALUES (${values.join(', ')})`;
}

const step = (key: (typeof STEP_KEYS)[number]) => columnName(runSteps, key);
/**
 * What a later event of a step does to what an earlier one stored: a retry
 * keeps the highest attempt count, values left null keep the earlier ones,
 * the first start time stays.
 */
const STEP_MERGE: Record<Exclude<(typeof STEP_KEYS)[number], 'runId' | 'nodeId' | 'seq' | 'iteration'>, string> = {
  status: `excluded.${step('status')}`,
  attempts: `max(run_steps.${step('attempts')}, excluded.${step('attempts')})`,
  input: `coalesce(excluded.${step('input')}, run_steps.${step('input')})`,
  output: `coalesce(excluded.${step('output')}, run_steps.${step('output')})`,
  errorCode: `excluded.${step('errorCode')}`,
  errorMessage: `excluded.${step('errorMessage')}`,
  usage: `coalesce(excluded.${step('usage')}, run_steps.${step('usage')})`,
  messages: `coalesce(excluded.${step('messages')}, run_steps.${step('messages')})`,
  startedAt: `coalesce(run_steps.${step('startedAt')}, excluded.${step('startedAt')})`,
  finishedAt: `excluded.${step('finishedAt')}`,
  retries: `coalesce(excluded.${step('retries')}, run_steps.${step('retries')})`,
  toolCalls: `coalesce(excluded.${step('toolCalls')}, run_steps.${step('toolCalls')})`,
  childRunId: `coalesce(excluded.${step('childRunId')}, run_steps.${step('childRunId')})`,
  origin: `coalesce(excluded.${step('origin')}, run_steps.${step('origin')})`,
  warnings: `coalesce(excluded.${step('warnings')}, run_steps.${step('warnings')})`,
};

/** The step upsert for the keys given: columns left out take their default (null), as a null bound to them would. */
const stepUpsert = (keys: KeysOf<typeof runSteps>): string =>
  `${insert(runSteps, keys)} ON CONFLICT (${step('runId')}, ${step('nodeId')}, ${step('iteration')}) DO UPDATE SET ${Object.entries(
    STEP_MERGE,
  )
    .map(([key, value]) => `${step(key as keyof typeof STEP_MERGE)} = ${value}`)
    .join(', ')}`;

export const RUN_STATEMENTS = {
  insertSnapshot: insert(snapshots, SNAPSHOT_KEYS).replace('INSERT', 'INSERT OR IGNORE'),
  insertRun: insert(runs, RUN_START_KEYS, { status: "'running'" }),
  /** A run that started and finished within one batch: one row written once (see mergeWrites). */
  insertFinishedRun: insert(runs, [...RUN_START_KEYS, ...RUN_FINISH_KEYS]),
  finishRun: `UPDATE ${getTableName(runs)} SET ${RUN_FINISH_KEYS.map((key) => `${columnName(runs, key)} = ?`).join(', ')} WHERE ${columnName(runs, 'id')} = ?`,
  upsertStep: stepUpsert(STEP_KEYS),
  /** How far a run journal is committed (see run-journal.ts): in the same transaction as the batch it names. */
  markJournal: `${insert(runJournals, JOURNAL_KEYS)} ON CONFLICT (${columnName(runJournals, 'journal')}) DO UPDATE SET ${columnName(runJournals, 'committedBatch')} = max(${getTableName(runJournals)}.${columnName(runJournals, 'committedBatch')}, excluded.${columnName(runJournals, 'committedBatch')})`,
} as const satisfies Record<RunStatementName, string>;

const run = (key: KeysOf<typeof runs>[number]) => columnName(runs, key);
/** Only rows still running are touched: a record the process stored meanwhile (its journal replayed) stays. */
const INTERRUPT_SQL: InterruptSql = {
  running: `SELECT ${run('id')} AS id, ${run('hostPid')} AS pid, ${run('startedAt')} AS startedAt FROM ${getTableName(runs)} WHERE ${run('status')} = 'running'`,
  closeRun: `UPDATE ${getTableName(runs)} SET ${run('status')} = 'interrupted', ${run('errorCode')} = ?, ${run('errorMessage')} = ?, ${run('finishedAt')} = ? WHERE ${run('id')} = ? AND ${run('status')} = 'running'`,
  closeSteps: `UPDATE ${getTableName(runSteps)} SET ${step('status')} = 'cancelled', ${step('errorCode')} = 'CANCELLED', ${step('errorMessage')} = ? WHERE ${step('runId')} = ? AND ${step('status')} = 'running'`,
};

/** What the run writers prepare, the worker's included (it gets this from the main thread; see run-statement-keys.ts). */
export const RUN_SQL: RunSql = {
  statements: RUN_STATEMENTS,
  /** The upsert of a step with PLAIN_STEP_KEYS alone: the same row, and the same merge, as upsertStep with nulls for the others. */
  plainStepUpsert: stepUpsert(PLAIN_STEP_KEYS),
  interrupt: INTERRUPT_SQL,
};
