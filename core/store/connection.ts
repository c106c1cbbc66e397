import type Database from 'better-sqlite3';

/**
 * Settings every connection to a Flowbench database needs, the main one and
 * the background run writer's alike.
 */

/** How long a write waits for another process's write lock before it fails. */
export const BUSY_TIMEOUT_MS = 10_000;

export function configureConnection(db: Database.Database): void {
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // Another process (the app, the CLI, `serve`) may be writing: wait, don't fail.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}
