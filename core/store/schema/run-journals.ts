import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * How far each run journal (see core/store/run-journal.ts) is committed: the
 * id of the last of its batches in the database, written in the same
 * transaction as that batch. Replaying a journal after a crash starts past it,
 * so nothing is stored twice and nothing deleted since comes back.
 */
export const runJournals = sqliteTable('run_journals', {
  journal: text('journal').primaryKey(),
  committedBatch: integer('committed_batch').notNull(),
});
