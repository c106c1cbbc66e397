import { foreignKey, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nodes } from './nodes';

/** One row per edge; the database itself refuses an edge to a missing node. */
export const edges = sqliteTable(
  'edges',
  {
    flowId: text('flow_id').notNull(),
    id: text('id').notNull(),
    ord: integer('ord').notNull(),
    source: text('source').notNull(),
    sourcePort: text('source_port').notNull(),
    target: text('target').notNull(),
    targetPort: text('target_port').notNull(),
    /** Set on a loop edge: the passes it allows (FlowEdge.loop). */
    loopMaxIterations: integer('loop_max_iterations'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.flowId, t.id] }),
    foreignKey({ columns: [t.flowId, t.source], foreignColumns: [nodes.flowId, nodes.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.flowId, t.target], foreignColumns: [nodes.flowId, nodes.id] }).onDelete('cascade'),
    index('edges_flow_ord').on(t.flowId, t.ord),
    index('edges_flow_source').on(t.flowId, t.source),
    index('edges_flow_target').on(t.flowId, t.target),
  ],
);
