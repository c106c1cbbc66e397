import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from './process-alive';
import { prepareRunStatements, runEach, type PreparedRunStatements } from './run-batches';
import type { RunStatementName, RunWrite, RunWriteBatch } from './run-statement-keys';

/**
 * Run journals: how a long-lived host (`flowbench mcp`, `serve`, the app)
 * makes a run durable before it answers without waiting for SQLite.
 *
 * Each batch of run records handed to the background writer is first appended
 * as one line to a file of this process's own; once `append` returns, the OS
 * holds it and it outlives the process (a crash, `kill -9`), as a commit in
 * SQLite's WAL with synchronous=NORMAL does. The writer's thread then commits
 * the batch, with a row in `run_journals` saying how far this journal is
 * committed, in the same transaction. When a journal's process is gone, the
 * next Flowbench process that opens the database (and every running host,
 * every few seconds) replays what is past that mark, and removes the file.
 *
 * Why: the commit cost an MCP answer 40–70 µs of the main thread, more than a
 * bare SDK server takes for a whole call; one append is a few µs.
 */

/**
 * Where a database's run journals live: a private folder beside it (they hold
 * inputs and outputs, as it does). Not `-journal`: SQLite takes a file of that
 * name for its own rollback journal.
 */
export const journalFolder = (databasePath: string): string => `${databasePath}.run-journals`;

/**
 * The write a journaled batch ends with: how far its journal is committed,
 * stored in the batch's own transaction (the mark a replay starts after).
 */
export const journalMark = (journal: string, batchId: number): RunWrite => ['markJournal', [journal, batchId]];

/** The journal a mark write names; undefined for any other write. */
export function markedJournal(write: RunWrite | undefined): string | undefined {
  return write?.[0] === 'markJournal' ? String(write[1][0]) : undefined;
}

/** The journal a batch was appended to (its last write is the mark); undefined for a batch never journaled. */
export const journalOfBatch = (batch: RunWriteBatch): string | undefined =>
  markedJournal(batch.writes[batch.writes.length - 1]);

/**
 * This process's mark in the names of the journals it writes
 * (`<pid>-<token>-<ms>-<hex>.jsonl`): its own replays leave them alone, but
 * for those it gives up (see `hold`), and a predecessor that had the same pid
 * (a container's pid 1) is told apart. The writer's thread has a copy of this
 * module of its own, and is handed this one's token.
 */
export const JOURNAL_TOKEN = randomBytes(4).toString('hex');

/** Past this a journal is retired (removed once all its batches are committed) and another begun. */
const ROTATE_BYTES = 8 * 1024 * 1024;

interface OpenFile {
  name: string;
  fd: number;
  /** The id of the last batch appended to it. */
  lastId: number;
}

const report = (message: string) => process.stderr.write(`flowbench: ${message}\n`);

/** This process's journal of one database. */
export class RunJournal {
  private file: OpenFile;
  private bytes = 0;
  private retired: OpenFile[] = [];
  /** Files left for a replay (see `hold`). */
  private readonly held: string[] = [];
  /** The current file is held and no other could be made: nothing more is appended. */
  private failed = false;

  private constructor(
    private readonly folder: string,
    private readonly rotateBytes: number,
  ) {
    this.file = this.create();
  }

  /** A journal for the database, or undefined (with why on stderr) where none can be written: run records then wait for SQLite. */
  static open(databasePath: string, rotateBytes = ROTATE_BYTES): RunJournal | undefined {
    try {
      const folder = journalFolder(databasePath);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      return new RunJournal(folder, rotateBytes);
    } catch (error) {
      report(`no run journal (${(error as Error).message}); answers wait for the database instead`);
      return undefined;
    }
  }

  /** The name the next batch's mark must carry (the file it is appended to). */
  get current(): string {
    return this.file.name;
  }

  /**
   * Appends one batch (its JSON, one line). When this returns true the batch
   * is durable; false: it could not be written (a full disk), and the caller
   * waits for its commit instead.
   */
  append(id: number, line: string): boolean {
    if (this.failed) return false;
    const text = `${line}\n`;
    let size: number;
    try {
      // A string is written without a Buffer made for it: about 1 µs less than Buffer.from on each answer.
      size = writeSync(this.file.fd, text);
      const length = Buffer.byteLength(text);
      // A short write (a full disk) leaves the rest to write from where it stopped.
      if (size < length) {
        const bytes = Buffer.from(text);
        while (size < length) size += writeSync(this.file.fd, bytes, size);
      }
    } catch (error) {
      report(
        `the run journal could not be written (${(error as Error).message}); answers wait for the database instead`,
      );
      return false;
    }
    this.file.lastId = id;
    this.bytes += size;
    if (this.bytes >= this.rotateBytes) {
      this.retired.push(this.file);
      this.file = this.create();
      this.bytes = 0;
    }
    return true;
  }

  /** Removes the retired files whose batches are all committed (up to `settled`); their names, whose marks can go. */
  release(settled: number): string[] {
    if (this.retired.length === 0) return [];
    const done = this.retired.filter((file) => file.lastId <= settled);
    this.retired = this.retired.filter((file) => file.lastId > settled);
    for (const file of done) this.removeFile(file);
    return done.map((file) => file.name);
  }

  /**
   * The database refused a batch of these files whole (a full disk, an I/O
   * error), and the writer refuses their later batches too, so their marks
   * stay before it. This process no longer appends to them nor removes them:
   * its replays name them (see `heldLeft`), so a replay stores what is past
   * their marks once the database takes writes again (this process's own,
   * every few seconds, or the next Flowbench to open the database), then
   * removes them.
   */
  hold(names: readonly string[]): void {
    for (const name of names) {
      const file = this.file.name === name ? this.file : this.retired.find((f) => f.name === name);
      if (!file || this.held.includes(name)) continue;
      this.held.push(name);
      this.retired = this.retired.filter((f) => f !== file);
      if (file === this.file) {
        try {
          this.file = this.create();
          this.bytes = 0;
        } catch (error) {
          // No new file (a full disk): appends fail from now on, so answers wait for commits.
          report(`no new run journal (${(error as Error).message}); answers wait for the database instead`);
          this.failed = true;
          continue;
        }
      }
      closeSync(file.fd);
    }
  }

  isHeld(name: string): boolean {
    return this.held.includes(name);
  }

  /** The held files that no replay has stored and removed yet. */
  heldLeft(): string[] {
    return this.held.filter((name) => existsSync(join(this.folder, name)));
  }

  /** Every batch is committed: removes all the files; their names, whose marks can go. */
  remove(): string[] {
    // A held current file (no other could be made) stays for its replay.
    if (this.failed) closeSync(this.file.fd);
    const all = this.failed ? this.retired : [...this.retired, this.file];
    for (const file of all) this.removeFile(file);
    this.retired = [];
    return all.map((file) => file.name);
  }

  /** Some batches are not committed: closes the files and leaves them for the next process to replay. */
  keep(): void {
    for (const file of [...this.retired, this.file]) closeSync(file.fd);
  }

  private create(): OpenFile {
    const name = `${process.pid}-${JOURNAL_TOKEN}-${Date.now()}-${randomBytes(2).toString('hex')}.jsonl`;
    const fd = openSync(join(this.folder, name), 'a', 0o600);
    return { name, fd, lastId: 0 };
  }

  private removeFile(file: OpenFile): void {
    closeSync(file.fd);
    unlinkQuietly(join(this.folder, file.name));
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

interface JournalStatements {
  mark: Database.Statement;
  forget: Database.Statement;
}

/** The statements reading and deleting journals' marks, prepared once per connection. */
const preparedFor = new WeakMap<Database.Database, JournalStatements>();

function statementsOf(sqlite: Database.Database): JournalStatements {
  let prepared = preparedFor.get(sqlite);
  if (!prepared) {
    prepared = {
      mark: sqlite.prepare('SELECT committed_batch FROM run_journals WHERE journal = ?').pluck(),
      forget: sqlite.prepare('DELETE FROM run_journals WHERE journal = ?'),
    };
    preparedFor.set(sqlite, prepared);
  }
  return prepared;
}

/** Deletes the marks of journals that are gone (their batches all committed). */
export function forgetJournals(sqlite: Database.Database, names: readonly string[]): void {
  const { forget } = statementsOf(sqlite);
  for (const name of names) forget.run(name);
}

/**
 * Replays the journals of processes that are gone into the database, and
 * removes them; returns how many batches it stored. Safe to run from several
 * processes at once: each journal is read inside the write transaction, past
 * the mark the last replay (or the writer) left.
 *
 * The journals of the process with `token` (this one's, unless the writer's
 * thread is handed it) are written still and left alone, but for the `held`
 * ones it gave up. A list of the files it writes would not do: the journal
 * goes on in a new file whenever one fills, also between a host asking for
 * a replay and its writer's thread making it, and that file was replayed and
 * removed while it was appended to (every batch then failed to commit again
 * as a duplicate, and a crash would have lost the rest).
 */
export function recoverJournals(
  sqlite: Database.Database,
  statements: Readonly<Record<RunStatementName, string>>,
  held: readonly string[] = [],
  token: string = JOURNAL_TOKEN,
): number {
  const folder = journalFolder(sqlite.name);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return 0; // No journal was ever written beside this database.
  }
  let stored = 0;
  // Prepared once, for the first journal to replay: most hosts never replay one.
  let writes: PreparedRunStatements | undefined;
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const [pidText, nameToken] = name.split('-');
    const pid = Number(pidText);
    if (pid === process.pid && nameToken === token) {
      if (!held.includes(name)) continue;
    } else if (pid !== process.pid && isProcessAlive(pid, modifiedAt(join(folder, name)))) {
      // A live process owns its journal; one with our pid and another token is a predecessor's (a container's pid 1).
      continue;
    }
    writes ??= prepareRunStatements(sqlite, statements);
    stored += replay(sqlite, writes, folder, name);
  }
  return stored;
}

/** When a file was last written, or undefined when it is gone (replayed by another process meanwhile). */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function replay(sqlite: Database.Database, writes: PreparedRunStatements, folder: string, name: string): number {
  const { mark: markOf } = statementsOf(sqlite);
  const path = join(folder, name);
  const failures: string[] = [];
  const applied = sqlite
    .transaction(() => {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return 0; // Another process replayed and removed it meanwhile.
      }
      const mark = (markOf.get(name) as number | undefined) ?? 0;
      let count = 0;
      for (const line of text.split('\n')) {
        if (line === '') continue;
        let batch: { id: number; writes: RunWrite[] };
        try {
          batch = JSON.parse(line) as typeof batch;
        } catch {
          break; // Cut off by the crash while it was written: never acknowledged.
        }
        if (batch.id <= mark) continue;
        // A write that fails (its flow was deleted since, say) does not keep the rest of the journal out.
        for (const { write, error } of runEach(writes, batch.writes)) {
          failures.push(`${write[0]}: ${error.message}`);
        }
        count++;
      }
      return count;
    })
    .immediate();
  if (failures.length > 0)
    report(`${failures.length} record(s) of run journal ${name} could not be stored: ${failures[0]}`);
  // The file first: a mark left without its file is harmless, a file without its mark would be replayed again.
  unlinkQuietly(path);
  forgetJournals(sqlite, [name]);
  return applied;
}
