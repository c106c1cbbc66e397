import Database from 'better-sqlite3';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import { APPLICATION_ID, openDatabase } from './database';

const tempDir = useTempDir();

describe('openDatabase', () => {
  it('creates a database with migrations, WAL and foreign keys', () => {
    const path = join(tempDir(), 'nested', 'new.db');
    const store = openDatabase(path);
    try {
      expect(store.isNew).toBe(true);
      expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.sqlite.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
      const tables = store.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        .pluck()
        .all();
      expect(tables).toEqual([
        '__drizzle_migrations',
        'agent_versions',
        'agents',
        'edges',
        'flow_versions',
        'flows',
        'memory_entries',
        'nodes',
        'run_journals',
        'run_steps',
        'runs',
        'settings',
        'snapshots',
      ]);
    } finally {
      store.close();
    }
    const again = openDatabase(path);
    expect(again.isNew).toBe(false);
    again.close();
  });

  it('refuses a file that is not SQLite and leaves it untouched', () => {
    const path = join(tempDir(), 'notes.db');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(100));
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(
      expect.objectContaining({ code: 'NOT_A_DATABASE', message: expect.stringContaining('is not a SQLite database') }),
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses another application's SQLite database and leaves it untouched", () => {
    const path = join(tempDir(), 'other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')");
    other.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(
      expect.objectContaining({ code: 'NOT_A_DATABASE', message: expect.stringContaining('another application') }),
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('creates the database and its WAL and SHM files for its owner only, in a private folder (security finding 7)', () => {
    const folder = join(tempDir(), 'private');
    const path = join(folder, 'flowbench.db');
    const store = openDatabase(path);
    try {
      store.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('k', '\"v\"')").run();
      const mode = (file: string) => statSync(file).mode & 0o777;
      expect(mode(folder)).toBe(0o700);
      expect(mode(path)).toBe(0o600);
      expect(mode(`${path}-wal`)).toBe(0o600);
      expect(mode(`${path}-shm`)).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it('refuses an empty SQLite file that another application marked as its own (security finding 8)', () => {
    const path = join(tempDir(), 'theirs-empty.db');
    const theirs = new Database(path);
    theirs.pragma('application_id = 1234');
    theirs.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: 'NOT_A_DATABASE' }));
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('says it cannot create a database where no file can be made, naming the path, rather than failing as a bug', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'flows.db');
    expect(() => openDatabase(path)).toThrow(
      expect.objectContaining({
        code: 'DATABASE_ERROR',
        message: expect.stringMatching(
          new RegExp(`^cannot create the database ${path}: .*; choose another place with --db or FLOWBENCH_DB$`),
        ),
      }),
    );
  });

  // Linux only: elsewhere there is no /proc.
  it.skipIf(process.platform !== 'linux')(
    "says it cannot create a database under /proc instead of hanging (Node's recursive mkdir spins there)",
    () => {
      expect(() => openDatabase('/proc/flowbench-nowhere/flows.db')).toThrow(
        expect.objectContaining({
          code: 'DATABASE_ERROR',
          message: expect.stringContaining('cannot create the database /proc/flowbench-nowhere/flows.db: no such file'),
        }),
      );
    },
  );

  it('refuses a database written by a newer Flowbench', () => {
    const path = join(tempDir(), 'future.db');
    openDatabase(path).close();
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: 'DATABASE_TOO_NEW' }));
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('migration 0000_init', () => {
  it('creates tables that enforce the flow graph', () => {
    const store = openDatabase(join(tempDir(), 'm.db'));
    const { sqlite } = store;
    try {
      sqlite
        .prepare(
          `INSERT INTO flows (id, name, tool_name, tool_annotations, parameters, metadata, created_at, updated_at) VALUES ('f', 'F', 't', '{}', '[]', '{}', 1, 1)`,
        )
        .run();
      const node = sqlite.prepare(
        `INSERT INTO nodes (flow_id, id, ord, type, version, x, y, config, updated_at) VALUES ('f', ?, ?, 'template', 1, 0, 0, '{}', 1)`,
      );
      node.run('a', 0);
      node.run('b', 1);
      const edge = sqlite.prepare(
        `INSERT INTO edges (flow_id, id, ord, source, source_port, target, target_port) VALUES ('f', ?, 0, ?, 'out', ?, 'in')`,
      );
      edge.run('e1', 'a', 'b');
      expect(() => edge.run('e2', 'a', 'missing')).toThrow(/FOREIGN KEY/);
      expect(() =>
        sqlite
          .prepare(
            `INSERT INTO flows (id, name, tool_name, tool_annotations, parameters, metadata, created_at, updated_at) VALUES ('g', 'G', 't', '{}', '[]', '{}', 1, 1)`,
          )
          .run(),
      ).toThrow(/UNIQUE/);
      sqlite.prepare("DELETE FROM nodes WHERE id = 'b'").run();
      expect(sqlite.prepare('SELECT count(*) FROM edges').pluck().get()).toBe(0);
      sqlite.prepare("DELETE FROM flows WHERE id = 'f'").run();
      expect(sqlite.prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
