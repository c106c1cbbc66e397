import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Flow } from '../../model/flow';

/**
 * Flow snapshots that runs ran, stored once per distinct content: a thousand
 * runs of an unchanged flow share one row.
 */
export const snapshots = sqliteTable('snapshots', {
  hash: text('hash').primaryKey(),
  body: text('body', { mode: 'json' }).$type<Flow>().notNull(),
  createdAt: integer('created_at').notNull(),
});
