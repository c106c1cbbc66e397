import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dumpDatabase } from '../../tests/helpers/db-dump';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { finishedRunWrites } from '../../tests/helpers/run-writes';
import { useTempDir } from '../../tests/helpers/temp';
import { openDatabase } from './database';
import { FlowRepository } from './flow-repository';
import { createBatchCommitter, prepareRunStatements } from './run-batches';
import { RUN_SQL, RUN_STATEMENTS, STEP_KEYS, type RunWrite } from './run-statements';

const tempDir = useTempDir();
const flow = greeterFlow('greeter');
const NOW = 1_795_000_000_000;

/** A database with the greeter flow, so runs of it can be stored. */
function newDatabase(name: string) {
  const database = openDatabase(join(tempDir(), name));
  new FlowRepository(database).create(flow);
  return database;
}

type Step = Partial<Record<(typeof STEP_KEYS)[number], string | number | null>>;
const step = (fields: Step): RunWrite => [
  'upsertStep',
  STEP_KEYS.map((key) => ({ runId: 'run-1', iteration: 0, attempts: 1, ...fields })[key] ?? null) as never,
];

/**
 * A run of 40 nodes as the engine writes it: each step once when it starts
 * and once when it ends (merged by the upsert), some ends far from their
 * start, one step retried, and the run's own row between the steps.
 */
function runWrites(): RunWrite[] {
  const writes = finishedRunWrites(flow, 'run-1', NOW, { trigger: 'cli', finishedAt: NOW + 100, durationMs: 100 });
  for (let i = 0; i < 40; i++) {
    writes.push(step({ nodeId: `n${i}`, seq: i, status: 'running', input: `{"i":${i}}`, startedAt: NOW + i }));
    if (i % 3 === 0)
      writes.push(
        step({ nodeId: `n${i}`, seq: i, status: 'succeeded', output: `"out ${i}"`, finishedAt: NOW + i + 1 }),
      );
  }
  writes.push(step({ nodeId: 'n7', seq: 7, status: 'running', attempts: 2, retries: '[{"error":"429"}]' }));
  // A failed attempt's error, then a plain step (see PLAIN_STEP_KEYS) that clears it, as a null bound to it would.
  writes.push(step({ nodeId: 'n8', seq: 8, status: 'running', errorCode: 'RATE_LIMITED', errorMessage: '429' }));
  writes.push(step({ nodeId: 'n8', seq: 8, status: 'running', attempts: 2, startedAt: NOW + 50 }));
  writes.push(step({ nodeId: 'n9', seq: 9, status: 'running', usage: '{"inputTokens":3}', messages: '[]' }));
  writes.push(step({ nodeId: 'n40', seq: 40, status: 'failed', errorCode: 'TEMPLATE_ERROR', finishedAt: NOW + 60 }));
  writes.push(['markJournal', ['j-1', 1]]);
  for (let i = 0; i < 40; i++) {
    if (i % 3 !== 0)
      writes.push(
        step({ nodeId: `n${i}`, seq: i, status: 'succeeded', output: `"out ${i}"`, finishedAt: NOW + i + 1 }),
      );
  }
  return writes;
}

describe('batch commits', () => {
  it('store a run whose steps go many rows a statement (plain steps with their values alone) exactly as one statement a write does', () => {
    const bulk = newDatabase('bulk.db');
    const failures: string[] = [];
    const committer = createBatchCommitter(bulk.sqlite, RUN_SQL, {
      onBusy: () => undefined,
      onFailed: (failed) => failures.push(...failed.map((f) => f.error.message)),
    });
    expect(committer.tryCommit({ writes: runWrites() })).toBe('committed');
    expect(failures).toEqual([]);
    committer.stop();
    bulk.close();

    const single = newDatabase('single.db');
    const prepared = prepareRunStatements(single.sqlite, RUN_STATEMENTS);
    single.sqlite.transaction(() => {
      for (const [name, params] of runWrites()) prepared[name].run(params);
    })();
    single.close();

    const bulkRows = dumpDatabase(join(tempDir(), 'bulk.db'));
    const singleRows = dumpDatabase(join(tempDir(), 'single.db'));
    expect(bulkRows.run_steps).toHaveLength(41);
    expect(bulkRows.run_steps).toContainEqual(
      expect.objectContaining({ node_id: 'n7', status: 'succeeded', attempts: 2, output: '"out 7"', input: '{"i":7}' }),
    );
    expect(bulkRows.run_steps).toContainEqual(
      expect.objectContaining({
        node_id: 'n8',
        status: 'succeeded',
        attempts: 2,
        error_code: null,
        started_at: NOW + 8,
      }),
    );
    expect(bulkRows.run_steps).toContainEqual(
      expect.objectContaining({ node_id: 'n40', status: 'failed', error_code: 'TEMPLATE_ERROR' }),
    );
    expect(bulkRows.run_steps).toContainEqual(
      expect.objectContaining({ node_id: 'n9', status: 'running', usage: '{"inputTokens":3}', output: '"out 9"' }),
    );
    for (const table of ['runs', 'run_steps', 'run_journals']) expect(bulkRows[table]).toEqual(singleRows[table]);
  });
});
