import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { AGENT_STATUSES, type AgentSettings } from '../../model/agents';

/** The agent library (seed 004's agent_definition): a named agent and its draft settings. */
export const agents = sqliteTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** `review`: made by an import for an unknown agent version; flows using it publish after review. */
    status: text('status', { enum: AGENT_STATUSES }).notNull().default('active'),
    draft: text('draft', { mode: 'json' }).$type<AgentSettings>().notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('agents_name_unique').on(t.name)],
);

/** Immutable published versions of an agent (seed 004's agent_version); flow steps name them by id. */
export const agentVersions = sqliteTable(
  'agent_versions',
  {
    /** A UUID, or the id an imported file used for it. */
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    settings: text('settings', { mode: 'json' }).$type<AgentSettings>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('agent_versions_agent_version').on(t.agentId, t.version)],
);
