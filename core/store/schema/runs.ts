import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Flow } from '../../model/flow';
import { flows } from './flows';

/** One row per run, from the editor, the CLI or an MCP client. */
export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    flowId: text('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    flowVersion: integer('flow_version'),
    snapshot: text('snapshot', { mode: 'json' }).$type<Flow>().notNull(),
    inputs: text('inputs', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    trigger: text('trigger', { enum: ['editor', 'cli', 'mcp'] }).notNull(),
    client: text('client'),
    status: text('status', {
      enum: ['running', 'succeeded', 'partial', 'failed', 'stopped', 'cancelled', 'interrupted'],
    }).notNull(),
    output: text('output', { mode: 'json' }).$type<unknown>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('runs_flow_started').on(t.flowId, t.startedAt)],
);
