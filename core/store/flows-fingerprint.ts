import type Database from 'better-sqlite3';

/**
 * What an open editor shows of the database besides runs, as one string:
 * each flow's id, change time and tool switch; the nodes' count, latest
 * change and revisions; the edges', flow versions' and agent versions' rows;
 * each agent's change time and status. A flow saved anywhere changes its row
 * or its nodes' (edges are added and removed with their flow's row changed).
 *
 * Why: another process's commit shows only as PRAGMA data_version moving,
 * whatever it wrote. `serve` told open editors "flows changed" at each move,
 * and they read the flow list and the open flow again every second while an
 * MCP client's runs were stored, though only runs had changed.
 */
const FINGERPRINT = `select
  coalesce((select group_concat(id || ':' || updated_at || ':' || tool_enabled, ',') from flows), '') || '|' ||
  (select count(*) || ':' || coalesce(max(updated_at), 0) || ':' || total(rev) from nodes) || '|' ||
  (select count(*) || ':' || coalesce(max(rowid), 0) from edges) || '|' ||
  (select count(*) || ':' || coalesce(max(rowid), 0) from flow_versions) || '|' ||
  coalesce((select group_concat(id || ':' || updated_at || ':' || status, ',') from agents), '') || '|' ||
  (select count(*) || ':' || coalesce(max(rowid), 0) from agent_versions)`;

const prepared = new WeakMap<Database.Database, Database.Statement>();

/** The fingerprint of flows and agents in the database (see FINGERPRINT); equal strings, nothing of them changed. */
export function flowsFingerprint(sqlite: Database.Database): string {
  let statement = prepared.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare(FINGERPRINT).pluck();
    prepared.set(sqlite, statement);
  }
  return statement.get() as string;
}
