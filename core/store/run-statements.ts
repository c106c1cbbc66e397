/**
 * The statements that record runs, by name. Both run writers prepare them:
 * the inline one on the main connection, the background one on its own.
 * Parameters are positional, in the order of the column lists: a write's
 * values cross to the worker as a plain array, the cheapest thing to copy.
 */
export const RUN_STATEMENTS = {
  insertSnapshot: 'INSERT OR IGNORE INTO snapshots (hash, body, created_at) VALUES (?, ?, ?)',
  insertRun: `
    INSERT INTO runs (id, flow_id, flow_name, flow_version, snapshot_hash, inputs, trigger, client, status, host_pid, started_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
  finishRun: `
    UPDATE runs SET status = ?, output = ?, error_code = ?, error_message = ?, error_node_id = ?, finished_at = ?, duration_ms = ?
    WHERE id = ?`,
  upsertStep: `
    INSERT INTO run_steps (run_id, node_id, seq, status, attempts, input, output, error_code, error_message, usage, messages, started_at, finished_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id, node_id) DO UPDATE SET
      status = excluded.status,
      attempts = max(run_steps.attempts, excluded.attempts),
      input = coalesce(excluded.input, run_steps.input),
      output = coalesce(excluded.output, run_steps.output),
      error_code = excluded.error_code,
      error_message = excluded.error_message,
      usage = coalesce(excluded.usage, run_steps.usage),
      messages = coalesce(excluded.messages, run_steps.messages),
      started_at = coalesce(run_steps.started_at, excluded.started_at),
      finished_at = excluded.finished_at`,
} as const;

export type RunStatementName = keyof typeof RUN_STATEMENTS;

/** One statement to run with its parameters (plain data: it may cross to a worker). */
export type RunWrite = [statement: RunStatementName, params: (string | number | null)[]];

/** Writes that belong together: one commit of the group-commit queue. */
export interface RunWriteBatch {
  writes: RunWrite[];
}
