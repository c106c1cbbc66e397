import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { NODE_ERROR_POLICIES, type FlowNode } from '../../model/flow';
import { flows } from './flows';

/** One row per node, so moving a node rewrites one small row. */
export const nodes = sqliteTable(
  'nodes',
  {
    flowId: text('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** Keeps the order nodes were added in, so exports are stable. */
    ord: integer('ord').notNull(),
    type: text('type').notNull(),
    version: integer('version').notNull(),
    label: text('label').notNull().default(''),
    x: real('x').notNull(),
    y: real('y').notNull(),
    config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    maxAttempts: integer('max_attempts'),
    timeoutMs: integer('timeout_ms'),
    onError: text('on_error', { enum: NODE_ERROR_POLICIES }),
    /** Deactivated (FlowNode.disabled): null when it runs. */
    disabled: integer('disabled', { mode: 'boolean' }),
    /** A pinned output (FlowNode.pin): null when the node runs in every run. */
    pin: text('pin', { mode: 'json' }).$type<NonNullable<FlowNode['pin']>>(),
    /** Runs for each item of a list (FlowNode.forEach): null when it runs once. */
    forEach: text('for_each', { mode: 'json' }).$type<NonNullable<FlowNode['forEach']>>(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** Bumped on every change to the row; edits name the revision they started from. */
    rev: integer('rev').notNull().default(1),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.id] }), index('nodes_flow_ord').on(t.flowId, t.ord)],
);
