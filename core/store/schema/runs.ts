import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { RUN_STATUSES, RUN_TRIGGERS, type RunOutput, type RunReuse } from '../../model/run';
import { flows } from './flows';
import { snapshots } from './snapshots';

/** One row per run, from the editor, the CLI or an MCP client. */
export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    flowId: text('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    flowName: text('flow_name').notNull(),
    flowVersion: integer('flow_version'),
    snapshotHash: text('snapshot_hash')
      .notNull()
      .references(() => snapshots.hash),
    inputs: text('inputs', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    trigger: text('trigger', { enum: RUN_TRIGGERS }).notNull(),
    client: text('client'),
    status: text('status', { enum: RUN_STATUSES }).notNull(),
    output: text('output', { mode: 'json' }).$type<RunOutput>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    errorNodeId: text('error_node_id'),
    /** The process running it, so a crashed run can be told from one still going. */
    hostPid: integer('host_pid').notNull(),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    durationMs: integer('duration_ms'),
    /** A run started from a node: which node, and the earlier run whose outputs it reused. */
    reuse: text('reuse', { mode: 'json' }).$type<RunReuse>(),
    /** A run to a node (Run to here): only it and the nodes it needs ran. */
    toNodeId: text('to_node_id'),
    /** The run whose flow node started this one (trigger `flow`). */
    parentRunId: text('parent_run_id'),
    /** The W3C trace context an MCP client sent with the call, for its traces to find the run. */
    traceparent: text('traceparent'),
    /** The conversation it ran in (the Chat tab's, `--conversation`): per-conversation memory channels. */
    conversation: text('conversation'),
  },
  (t) => [
    index('runs_flow_started').on(t.flowId, t.startedAt),
    // Only runs still going, for finding those a crash left behind: a run stored finished never touches it.
    index('runs_running')
      .on(t.status)
      .where(sql`${t.status} = 'running'`),
  ],
);
