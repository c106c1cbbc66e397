import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { Parameter } from '../../model/parameter';
import type { ToolSettings } from '../../model/flow';
import type { MemorySettings } from '../../model/memory';
import type { Note } from '../../model/notes';
import type { TestCase } from '../../model/test-cases';

/** One row per flow: its own fields. Nodes and edges live in their own tables. */
export const flows = sqliteTable(
  'flows',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    toolName: text('tool_name').notNull(),
    toolDescription: text('tool_description').notNull().default(''),
    whenToUse: text('when_to_use').notNull().default(''),
    whenNotToUse: text('when_not_to_use').notNull().default(''),
    toolEnabled: integer('tool_enabled', { mode: 'boolean' }).notNull().default(true),
    toolAnnotations: text('tool_annotations', { mode: 'json' }).$type<ToolSettings['annotations']>().notNull(),
    toolIcon: text('tool_icon'),
    parameters: text('parameters', { mode: 'json' }).$type<Parameter[]>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** The flow's test cases (see model/test-cases.ts). */
    tests: text('tests', { mode: 'json' }).$type<TestCase[]>().notNull().default([]),
    testsGatePublish: integer('tests_gate_publish', { mode: 'boolean' }).notNull().default(false),
    /** Memory channels and their retention (model/memory.ts). */
    memory: text('memory', { mode: 'json' }).$type<MemorySettings>().notNull().default({ channels: [] }),
    /** Sticky notes on the canvas (model/notes.ts). */
    notes: text('notes', { mode: 'json' }).$type<Note[]>().notNull().default([]),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('flows_tool_name_unique').on(t.toolName)],
);
