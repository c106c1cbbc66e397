import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Flow } from '../../model/flow';
import { flows } from './flows';

/** Immutable published versions of a flow: what MCP clients are served. */
export const flowVersions = sqliteTable(
  'flow_versions',
  {
    flowId: text('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    snapshot: text('snapshot', { mode: 'json' }).$type<Flow>().notNull(),
    note: text('note').notNull().default(''),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.version] })],
);
