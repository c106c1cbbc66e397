import type Database from 'better-sqlite3';

export const BUSY_TIMEOUT_MS: number;

export function configureConnection(db: Database.Database): void;
