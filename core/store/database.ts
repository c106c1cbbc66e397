import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { chmodSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import { BUSY_TIMEOUT_MS, configureConnection } from './connection';
import * as schema from './schema';
import { fileErrorReason } from '../model/file-errors';
import { makeFolders } from './make-folders';

/** Marks the file as Flowbench's in the SQLite header ("FLOW"). */
export const APPLICATION_ID = 0x464c4f57;
const SQLITE_HEADER = 'SQLite format 3\u0000';

export const DEFAULT_MIGRATIONS_FOLDER = fileURLToPath(new URL('../../resources/migrations', import.meta.url));

export type Db = BetterSQLite3Database<typeof schema>;

/**
 * The options of every transaction that writes. A deferred transaction that
 * reads first cannot upgrade to a write while another process holds the
 * write lock: SQLite answers BUSY at once instead of waiting busy_timeout.
 * IMMEDIATE takes the write lock when it begins, so it waits.
 */
export const WRITE_TRANSACTION = { behavior: 'immediate' } as const;

export interface FlowbenchDatabase {
  db: Db;
  sqlite: Database.Database;
  path: string;
  /** True when this open created the database (and so it may be seeded). */
  isNew: boolean;
  /**
   * Bumped by this process's writes that change what MCP serves (flows created,
   * deleted, enabled, published). Other processes' writes show in `data_version`.
   */
  catalogueEpoch: { value: number };
  close(): void;
}

export interface OpenOptions {
  migrationsFolder?: string;
  /** Path to a better-sqlite3 addon built for another ABI (Electron's main process). */
  nativeBinding?: string;
}

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

function readJournal(folder: string): Journal {
  return JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/**
 * Whether the database has every migration the journal lists, by drizzle's
 * own test: its newest applied migration is at least as new as each. `migrate`
 * reads and hashes every migration file first, at every open: 5 ms of each
 * command's start for a database already up to date, as nearly all are.
 */
function hasEveryMigration(sqlite: Database.Database, journal: Journal): boolean {
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const applied: unknown = sqlite.prepare('SELECT max(created_at) FROM __drizzle_migrations').pluck().get();
    return applied !== null && Number(applied) >= newest;
  } catch {
    // No table of migrations: a database drizzle never migrated.
    return false;
  }
}

/** Reads the first bytes without SQLite, so a foreign file is never touched. */
function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const read = readSync(fd, buffer, 0, 16, 0);
    return read === 16 && buffer.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens (or creates) a Flowbench database and brings its schema up to date.
 * A file that is not SQLite, a SQLite file of another application, or a
 * database written by a newer Flowbench is refused before anything is written.
 */
export function openDatabase(path: string, options: OpenOptions = {}): FlowbenchDatabase {
  const migrationsFolder = options.migrationsFolder ?? DEFAULT_MIGRATIONS_FOLDER;
  const exists = existsSync(path) && statSync(path).size > 0;
  if (exists && statSync(path).isDirectory()) {
    throw new FlowbenchError('NOT_A_DATABASE', `${path} is a folder, not a database file`, { path });
  }
  if (exists && !hasSqliteHeader(path)) {
    throw new FlowbenchError('NOT_A_DATABASE', `${path} is not a SQLite database; Flowbench left it untouched`, {
      path,
    });
  }
  if (!exists) createPrivateFile(path);

  // The open waits for a lock as long as every later statement does (better-sqlite3's own default is 5 s).
  const sqlite = new Database(path, {
    timeout: BUSY_TIMEOUT_MS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    const journal = readJournal(migrationsFolder);
    const knownMigrations = journal.entries.length;
    if (exists) checkExisting(sqlite, path, knownMigrations);
    sqlite.pragma('journal_mode = WAL');
    configureConnection(sqlite);
    const db = drizzle(sqlite, { schema });
    const isNew = !exists || sqlite.pragma('user_version', { simple: true }) === 0;
    if (isNew) sqlite.pragma(`application_id = ${APPLICATION_ID}`);
    try {
      if (!hasEveryMigration(sqlite, journal)) migrate(db, { migrationsFolder });
    } catch (error) {
      throw new FlowbenchError(
        'DATABASE_ERROR',
        `updating the schema of ${path} failed: ${(error as Error).message.split('\n')[0]}`,
        { path },
        { cause: error },
      );
    }
    if (sqlite.pragma('user_version', { simple: true }) !== knownMigrations) {
      sqlite.pragma(`user_version = ${knownMigrations}`);
    }
    return { db, sqlite, path, isNew, catalogueEpoch: { value: 0 }, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw toFlowbenchError(error);
  }
}

/**
 * Creates the database file readable by its owner only (0600), in a folder
 * only its owner can enter (0700) when Flowbench creates the folder: the
 * database holds API keys and the MCP bearer token. SQLite gives the WAL and
 * SHM files the database file's permissions.
 */
function createPrivateFile(path: string): void {
  try {
    makeFolders(dirname(path), 0o700);
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  } catch (error) {
    // A folder this user may not write in, a read-only disk: said as such (no stack), not as a bug to report.
    throw new FlowbenchError(
      'DATABASE_ERROR',
      `cannot create the database ${path}: ${fileErrorReason(error)}; choose another place with --db or FLOWBENCH_DB`,
      { path },
    );
  }
}

function checkExisting(sqlite: Database.Database, path: string, knownMigrations: number): void {
  let applicationId: unknown;
  let tableCount: unknown;
  let userVersion: unknown;
  try {
    applicationId = sqlite.pragma('application_id', { simple: true });
    userVersion = sqlite.pragma('user_version', { simple: true });
    tableCount = sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").pluck().get();
  } catch (error) {
    if (toFlowbenchError(error).code === 'DATABASE_BUSY') {
      throw new FlowbenchError(
        'DATABASE_BUSY',
        `${path} is locked by another process; try again once it lets go`,
        { path },
        { cause: error },
      );
    }
    throw new FlowbenchError(
      'NOT_A_DATABASE',
      `${path} cannot be read as a database: ${(error as Error).message}`,
      { path },
      { cause: error },
    );
  }
  // Another application's file: it has its tables, or it set its own application id even while empty.
  if (applicationId !== APPLICATION_ID && (tableCount !== 0 || applicationId !== 0)) {
    throw new FlowbenchError(
      'NOT_A_DATABASE',
      `${path} is a SQLite database of another application; Flowbench left it untouched`,
      { path },
    );
  }
  if (typeof userVersion === 'number' && userVersion > knownMigrations) {
    throw new FlowbenchError(
      'DATABASE_TOO_NEW',
      `${path} was written by a newer Flowbench (schema ${userVersion}, this one knows ${knownMigrations}); update Flowbench to open it`,
      { path, schemaVersion: userVersion, supported: knownMigrations },
    );
  }
}
