import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { RUN_FINISH_KEYS, RUN_START_KEYS, RUN_STATEMENTS, SNAPSHOT_KEYS, STEP_KEYS } from './run-statements';
import { runSteps, runs, snapshots } from './schema';

const sorted = (keys: readonly string[]) => [...new Set(keys)].sort();

describe('run statements', () => {
  it('write every column of the schema: a column added to it and not to the run writes fails here', () => {
    expect(sorted([...RUN_START_KEYS, ...RUN_FINISH_KEYS, 'status'])).toEqual(
      sorted(Object.keys(getTableColumns(runs))),
    );
    expect(sorted(STEP_KEYS)).toEqual(sorted(Object.keys(getTableColumns(runSteps))));
    expect(sorted(SNAPSHOT_KEYS)).toEqual(sorted(Object.keys(getTableColumns(snapshots))));
  });

  it("use the schema's SQL column names", () => {
    expect(RUN_STATEMENTS.insertRun).toContain('(id, flow_id, flow_name, flow_version, snapshot_hash, inputs');
    expect(RUN_STATEMENTS.upsertStep).toContain('ON CONFLICT (run_id, node_id, iteration) DO UPDATE SET');
    expect(RUN_STATEMENTS.finishRun).toMatch(/^UPDATE runs SET status = \?, .* WHERE id = \?$/);
  });
});
