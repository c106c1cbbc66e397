import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { flows } from './flows';

/** One row per memory entry: a flow's channel keeps them across runs, oldest first by id. */
export const memoryEntries = sqliteTable(
  'memory_entries',
  {
    id: integer('id').primaryKey(),
    flowId: text('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    payload: text('payload', { mode: 'json' }).$type<unknown>().notNull(),
    runId: text('run_id').notNull(),
    nodeId: text('node_id').notNull(),
    /** The published version the writing run ran; null for a draft's run. */
    flowVersion: integer('flow_version'),
    /** The writing run's conversation; null for a run given none. */
    conversation: text('conversation'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('memory_flow_channel').on(t.flowId, t.channel, t.id),
    index('memory_flow_channel_conversation').on(t.flowId, t.channel, t.conversation, t.id),
  ],
);
