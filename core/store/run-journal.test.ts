import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { startServe } from '../../tests/helpers/serve';
import { useTempDir } from '../../tests/helpers/temp';
import { openServices } from '../services/open-services';
import { finishedRunWrites } from '../../tests/helpers/run-writes';
import { journalFolder, recoverJournals, RunJournal } from './run-journal';
import { RUN_STATEMENTS } from './run-statements';

const tempDir = useTempDir();
const CHILD = join(import.meta.dirname, '../../tests/helpers/journal-child.ts');
const flow = greeterFlow('greeter');

/** A database with the flow, opened once by a host (which makes the journal folder) and closed cleanly. */
function newDatabase(name: string): string {
  const path = join(tempDir(), name);
  const services = openServices(path, { backgroundWrites: true });
  services.flows.create(flow);
  services.close();
  return path;
}

/** The ids of the runs a raw connection sees, with no Flowbench in between. */
function rawRunIds(db: string): string[] {
  const sqlite = new Database(db, { readonly: true });
  const ids = sqlite.prepare('SELECT id FROM runs').pluck().all() as string[];
  sqlite.close();
  return ids;
}

/** Runs the flow `count` times in a host that kills itself (SIGKILL) right after the last answer; the answered run ids. */
async function runAndDie(db: string, count: number, together = false): Promise<string[]> {
  const args = [CHILD, db, 'greeter', String(count), ...(together ? ['together'] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const signal = await new Promise((resolve) => child.on('exit', (_, s) => resolve(s)));
  expect(signal).toBe('SIGKILL');
  return out.trim().split('\n');
}

const REFUSING_HOST = join(import.meta.dirname, '../../tests/helpers/refusing-host.ts');

/** Sends a command to a refusing-host.ts process and resolves with its answer line. */
function hostAsker(host: ChildProcess): (command: string) => Promise<{ ok: string[]; failed: string[] }> {
  const lines: string[] = [];
  let buffered = '';
  let wake: (() => void) | undefined;
  host.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      wake?.();
    }
  });
  return async (command) => {
    host.stdin?.write(`${command}\n`);
    while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return JSON.parse(lines.shift() as string) as { ok: string[]; failed: string[] };
  };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('run journals (an answer never waits for SQLite, and a killed host loses no answered run)', () => {
  it('a host killed right after answering: the next Flowbench to open the database stores every answered run, once', async () => {
    const db = newDatabase('killed.db');
    const answered = await runAndDie(db, 40);
    expect(answered).toHaveLength(40);
    // The last answers were only in the journal when the process died (a commit waits up to 50 ms).
    const before = rawRunIds(db);
    expect(before.length).toBeLessThan(40);
    const journals = readdirSync(journalFolder(db));
    expect(journals).toHaveLength(1);
    // It holds runs' inputs and outputs, as the database does: its owner's only.
    expect(statSync(join(journalFolder(db), journals[0] as string)).mode & 0o777).toBe(0o600);

    const services = openServices(db);
    try {
      const stored = services.runs.list({ limit: 100 });
      expect(stored.map((run) => run.id).sort()).toEqual([...answered].sort());
      expect(stored.every((run) => run.status === 'succeeded')).toBe(true);
      expect(services.runs.get(answered[39] as string)).toMatchObject({
        output: { kind: 'return_values', values: [{ text: 'Hello caller 39' }] },
        steps: [
          expect.objectContaining({ nodeId: 'input' }),
          expect.objectContaining({ nodeId: 'greet', output: 'Hello caller 39' }),
          expect.objectContaining({ nodeId: 'result' }),
        ],
      });
    } finally {
      services.close();
    }
    // Replayed once: the journal and its mark are gone, and opening again stores nothing twice.
    expect(readdirSync(journalFolder(db))).toEqual([]);
    const sqlite = new Database(db);
    expect(sqlite.prepare('SELECT count(*) FROM run_journals').pluck().get()).toBe(0);
    expect(recoverJournals(sqlite, RUN_STATEMENTS)).toBe(0);
    expect(sqlite.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(40);
    sqlite.close();
  });

  it('runs that end together are journaled in one append, and a host killed right after answering them loses none', async () => {
    const db = newDatabase('together.db');
    const answered = await runAndDie(db, 30, true);
    expect(answered).toHaveLength(30);
    expect(rawRunIds(db)).toEqual([answered[0]]);
    const [journal] = readdirSync(journalFolder(db));
    const lines = readFileSync(join(journalFolder(db), journal as string), 'utf8')
      .trim()
      .split('\n');
    // One batch for the 29 that ended together. The first run's answer waited for its commit (no commit
    // had succeeded yet), so it was not journaled.
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(answered[0]);
    for (const id of answered.slice(1)) expect(lines[0]).toContain(id);

    const services = openServices(db);
    try {
      const stored = services.runs.list({ limit: 100 });
      expect(stored.map((run) => run.id).sort()).toEqual([...answered].sort());
      expect(stored.every((run) => run.status === 'succeeded')).toBe(true);
    } finally {
      services.close();
    }
  });

  it('a host that outlives the killed one (serve, the app) stores its journaled runs within seconds, with nobody opening the database again', async () => {
    const db = newDatabase('beside-serve.db');
    const serve = await startServe(db);
    try {
      const answered = await runAndDie(db, 10);
      expect(rawRunIds(db).length).toBeLessThan(10);
      const deadline = Date.now() + 10_000;
      while (rawRunIds(db).length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(rawRunIds(db).sort()).toEqual([...answered].sort());
    } finally {
      await serve.stop();
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'a database that refuses writes (a file size limit, as a full disk does) loses no answered run: the host stores them itself once it takes writes again',
    async () => {
      const db = newDatabase('refusing.db');
      // The host's files may not grow past 1 MB (the soft limit, which prlimit raises later); a commit a run.
      const host = spawn(
        'bash',
        ['-c', `ulimit -S -f 1024; exec "${process.execPath}" --import tsx "${REFUSING_HOST}" "${db}" greeter`],
        {
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      const ask = hostAsker(host);
      const answered: string[] = [];
      let failed: string[] = [];
      for (let round = 0; round < 20 && failed.length === 0; round++) {
        const result = await ask('run 100 3');
        answered.push(...result.ok);
        failed = result.failed;
      }
      expect(answered.length).toBeGreaterThan(0);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((message) => /could not be stored: disk I\/O error/.test(message))).toBe(true);
      // Nothing answered is lost meanwhile: each run is in a run journal or in the database. The journals
      // are read first: the host may replay one into the database (and remove it) in between, never the reverse.
      const journaled = readdirSync(journalFolder(db))
        .map((name) => readFileSync(join(journalFolder(db), name), 'utf8'))
        .join('\n');
      const stored = new Set(rawRunIds(db));
      expect(answered.filter((id) => !journaled.includes(id) && !stored.has(id))).toEqual([]);

      spawnSync('prlimit', ['--pid', String(host.pid), '--fsize=unlimited']);
      const deadline = Date.now() + 10_000;
      while (answered.some((id) => !rawRunIds(db).includes(id)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered.filter((id) => !rawRunIds(db).includes(id))).toEqual([]);
      const after = await ask('run 5 0');
      expect(after).toEqual({ ok: expect.any(Array), failed: [] });
      host.stdin.end('exit\n');
      await new Promise((resolve) => host.on('exit', resolve));

      const final = new Set(rawRunIds(db));
      for (const id of [...answered, ...after.ok]) expect(final.has(id)).toBe(true);
      // An answer that said its run could not be stored is true to it, unless it said the journal kept the run.
      for (const message of failed) {
        const id = /^run (\S+) /.exec(message)?.[1] as string;
        expect(final.has(id)).toBe(message.includes('kept in the run journal'));
      }
      expect(readdirSync(journalFolder(db))).toEqual([]);
    },
  );

  it('replays only what is past the mark the writer left, and not a line the crash cut off', () => {
    const db = newDatabase('marked.db');
    const name = `${deadPid()}-1-abcd.jsonl`;
    const now = Date.now();
    const run = (id: string) => finishedRunWrites(flow, id, now);
    const line = (id: number, runId: string) =>
      JSON.stringify({ id, writes: [...run(runId), ['markJournal', [name, id]]] });
    const sqlite = new Database(db);
    sqlite.pragma('foreign_keys = ON');
    // The writer had committed batch 1 (and its mark) before the process died.
    sqlite.prepare('INSERT INTO run_journals (journal, committed_batch) VALUES (?, 1)').run(name);
    writeFileSync(
      join(journalFolder(db), name),
      `${line(1, 'run-one')}\n${line(2, 'run-two')}\n${line(3, 'run-three').slice(0, 40)}`,
    );
    expect(recoverJournals(sqlite, RUN_STATEMENTS)).toBe(1);
    // Batch 1 was not stored again (it would have been, had the mark been ignored: it is not in the table).
    expect(sqlite.prepare('SELECT id FROM runs ORDER BY id').pluck().all()).toEqual(['run-two']);
    sqlite.close();
  });

  it('leaves the journal of a live process alone, and keeps journals private', () => {
    const db = newDatabase('live.db');
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const name = `${live.pid}-1-abcd.jsonl`;
      writeFileSync(join(journalFolder(db), name), '', { mode: 0o600 });
      const sqlite = new Database(db);
      expect(recoverJournals(sqlite, RUN_STATEMENTS)).toBe(0);
      sqlite.close();
      expect(readdirSync(journalFolder(db))).toEqual([name]);
    } finally {
      live.kill();
    }
    expect(statSync(journalFolder(db)).mode & 0o777).toBe(0o700);
  });

  it('a held journal (the database refused one of its batches) is not appended to nor removed, and is left to a replay', () => {
    const db = newDatabase('held.db');
    const journal = RunJournal.open(db) as RunJournal;
    const held = journal.current;
    expect(journal.append(1, '{"id":1,"writes":[]}')).toBe(true);
    journal.hold([held]);
    expect(journal.current).not.toBe(held);
    expect(journal.append(2, '{"id":2,"writes":[]}')).toBe(true);
    expect(readFileSync(join(journalFolder(db), held), 'utf8')).toBe('{"id":1,"writes":[]}\n');
    // Everything settled: the files go, but the held one waits for its replay.
    expect(journal.release(2)).toEqual([]);
    expect(journal.remove()).toEqual([expect.not.stringMatching(held)]);
    expect(journal.heldLeft()).toEqual([held]);
    expect(readdirSync(journalFolder(db))).toEqual([held]);
    // This process's replay leaves its own journals alone, but for the held ones it names.
    const sqlite = new Database(db);
    expect(recoverJournals(sqlite, RUN_STATEMENTS)).toBe(0);
    expect(recoverJournals(sqlite, RUN_STATEMENTS, journal.heldLeft())).toBe(1);
    expect(readdirSync(journalFolder(db))).toEqual([]);
    sqlite.close();
  });

  it("a replay never takes a journal this process still writes, one begun since the replay was asked for included; a predecessor's with the same pid it does", () => {
    const db = newDatabase('rotating.db');
    const journal = RunJournal.open(db, 100) as RunJournal;
    const first = journal.current;
    // The journal fills up and goes on in a new file, as it may between a host asking its writer's
    // thread for the periodic replay and that thread making it.
    expect(journal.append(1, 'x'.repeat(120))).toBe(true);
    const second = journal.current;
    expect(second).not.toBe(first);
    const batch = (id: number, runId: string, name: string) =>
      JSON.stringify({ id, writes: [...finishedRunWrites(flow, runId, Date.now()), ['markJournal', [name, id]]] });
    expect(journal.append(2, batch(2, 'run-two', second))).toBe(true);
    // A host that had this pid before (a container's pid 1) left a journal: another token in its name.
    const predecessor = `${process.pid}-0badcafe-1-abcd.jsonl`;
    writeFileSync(join(journalFolder(db), predecessor), `${batch(1, 'run-left', predecessor)}\n`, { mode: 0o600 });
    const sqlite = new Database(db);
    sqlite.pragma('foreign_keys = ON');
    // What the host's writer asks for every few seconds: its held journals (none here).
    expect(recoverJournals(sqlite, RUN_STATEMENTS, journal.heldLeft())).toBe(1);
    // Ours is not stored behind the writer's back (its own commit would then fail as a duplicate), nor
    // removed while it is appended to (a crash would then lose what it holds).
    expect(sqlite.prepare('SELECT id FROM runs').pluck().all()).toEqual(['run-left']);
    const left = readdirSync(journalFolder(db));
    expect(left).toEqual(expect.arrayContaining([first, second]));
    expect(left).not.toContain(predecessor);
    sqlite.close();
  });

  it('a journal past its size goes on in a new file; the old one is removed once all its batches are committed', () => {
    const db = join(tempDir(), 'rotated.db');
    const journal = RunJournal.open(db, 100) as RunJournal;
    const first = journal.current;
    expect(journal.append(1, 'x'.repeat(60))).toBe(true);
    expect(journal.current).toBe(first);
    expect(journal.append(2, 'y'.repeat(60))).toBe(true);
    const second = journal.current;
    expect(second).not.toBe(first);
    expect(journal.append(3, 'z')).toBe(true);
    expect(readdirSync(journalFolder(db)).sort()).toEqual([first, second].sort());
    // Batch 2, the last in the first file, is not committed yet: nothing goes.
    expect(journal.release(1)).toEqual([]);
    expect(journal.release(2)).toEqual([first]);
    expect(readdirSync(journalFolder(db))).toEqual([second]);
    expect(journal.remove()).toEqual([second]);
    expect(readdirSync(journalFolder(db))).toEqual([]);
  });
});
