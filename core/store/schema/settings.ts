import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Key/value settings: providers, the MCP token, UI preferences. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
});
