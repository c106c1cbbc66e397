import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { LlmMessage, StepError, TokenUsage } from '../../model/run';
import type { ToolCallRecord } from '../../model/tools';
import { runs } from './runs';

export const STEP_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled'] as const;
/** How a step settled without its node running: deactivated (its input passed on), or its pinned output. */
export const STEP_ORIGINS = ['passed-over', 'pinned'] as const;

/** One row per node of a run (per pass, for nodes in a loop): what it received, returned and cost. */
export const runSteps = sqliteTable(
  'run_steps',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    /** The pass of a loop this record is of (1 outside loops): each pass is its own row. */
    iteration: integer('iteration').notNull().default(1),
    /** Order in which steps started, for listing. */
    seq: integer('seq').notNull(),
    status: text('status', { enum: STEP_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    input: text('input', { mode: 'json' }).$type<unknown>(),
    output: text('output', { mode: 'json' }).$type<unknown>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    usage: text('usage', { mode: 'json' }).$type<TokenUsage>(),
    messages: text('messages', { mode: 'json' }).$type<LlmMessage[]>(),
    /** Why each attempt before the last failed (retries), oldest first. */
    retries: text('retries', { mode: 'json' }).$type<StepError[]>(),
    /** Every tool call of the step (agent and mcp_tool nodes), with arguments, result and duration. */
    toolCalls: text('tool_calls', { mode: 'json' }).$type<ToolCallRecord[]>(),
    /** The run a flow node started for the flow it calls. */
    childRunId: text('child_run_id'),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
    /** Set when the node did not run (STEP_ORIGINS); null for a step that ran. */
    origin: text('origin', { enum: STEP_ORIGINS }),
    /** What the model's provider said it did not honour (StepLinks.warnings). */
    warnings: text('warnings', { mode: 'json' }).$type<string[]>(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.nodeId, t.iteration] })],
);
