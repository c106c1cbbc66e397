import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import { buildFlow, template } from '../../tests/helpers/flow-builder';
import { openDatabase, type FlowbenchDatabase } from './database';
import { FlowRepository } from './flow-repository';
import type { RunWriteBatch } from './run-statements';
import { BackgroundRunWriter, InlineRunWriter, MAX_SYNC_BLOCK_MS, WORKER_SCRIPT, type RunWriter } from './run-writer';
import { holdWriteLock } from '../../tests/helpers/write-lock';

const tempDir = useTempDir();
let store: FlowbenchDatabase;
let writer: RunWriter | undefined;

beforeEach(() => {
  store = openDatabase(join(tempDir(), 'writer.db'));
  new FlowRepository(store).create(buildFlow({ id: 'f', nodes: [template('t', 'x')], edges: [] }));
});
afterEach(() => {
  writer?.close();
  writer = undefined;
  store.close();
});

/** A run row (with its snapshot) as the repository would write it. */
function runBatch(id: string): RunWriteBatch {
  return {
    writes: [
      ['insertSnapshot', [`hash-${id}`, '{}', 0]],
      [
        'insertRun',
        [id, 'f', 'F', null, `hash-${id}`, '{}', 'cli', null, process.pid, Date.now(), null, null, null, null, null],
      ],
    ],
  };
}
const storedRuns = () => store.sqlite.prepare('SELECT id FROM runs ORDER BY id').pluck().all();

describe('BackgroundRunWriter', () => {
  it("starts its thread without Drizzle or zod: the thread's script bundles neither (they were 1 MB of its 1.06, and 80–160 ms of CPU at every host's start)", () => {
    const script = readFileSync(WORKER_SCRIPT, 'utf8');
    expect(script).not.toMatch(/node_modules\/(drizzle-orm|zod)\//);
    expect(script.length).toBeLessThan(100_000);
  });

  it('commits on its own thread; sync makes the records visible here', () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    writer.write(runBatch('a'));
    writer.write(runBatch('b'));
    writer.sync();
    expect(storedRuns()).toEqual(['a', 'b']);
  });

  it('commits journaled batches handed over together in one go, its journal marked at the last of them', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    // Batches are journaled once a commit has succeeded (its settled message handled here).
    writer.write(runBatch('a'));
    await writer.settled();
    expect(writer.journaled).toBe(true);
    // Each journaled batch ends with its own mark; the thread gets these three in one message.
    for (const id of ['b', 'c', 'd']) writer.write(runBatch(id));
    writer.sync();
    expect(storedRuns()).toEqual(['a', 'b', 'c', 'd']);
    const marks = store.sqlite.prepare('SELECT committed_batch FROM run_journals').pluck().all();
    expect(marks).toEqual([4]);
  });

  // A commit does not preempt the thread that answers (see lowerPriority in run-writer.worker.ts).
  it.runIf(process.platform === 'linux')('runs its thread at a lower priority than this one (Linux)', () => {
    const niceOf = (task: string) => {
      // Fields after the command's closing parenthesis; nice is the 17th of them.
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const before = new Set(readdirSync('/proc/self/task'));
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    writer.write(runBatch('a'));
    writer.sync();
    const added = readdirSync('/proc/self/task').filter((task) => !before.has(task));
    // 10 (see WRITER_NICE): lower than this one's, not so low that other processes starve it.
    expect(added.map(niceOf)).toContain(10);
    expect(storedRuns()).toEqual(['a']);
  });

  it('leaves this thread free while another process holds the write lock, and writes once it is released', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    const releaseLock = holdWriteLock(store.path);
    const started = performance.now();
    writer.write(runBatch('waiting'));
    // Timers still fire here: the waiting happens on the worker.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(storedRuns()).toEqual([]);
    releaseLock();
    writer.sync();
    expect(storedRuns()).toEqual(['waiting']);
  });

  it('blocks a read at most MAX_SYNC_BLOCK_MS while the database is locked, and settles once it is free', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    writer.write(runBatch('first'));
    await writer.settled();
    const releaseLock = holdWriteLock(store.path);
    writer.write(runBatch('locked'));
    let isSettled = false;
    const settled = writer.settled().then(() => (isSettled = true));
    const started = performance.now();
    // It says it stopped waiting: what is read next may lack the batch.
    expect(writer.sync()).toBe(false);
    const blocked = performance.now() - started;
    expect(blocked).toBeGreaterThanOrEqual(MAX_SYNC_BLOCK_MS - 50);
    expect(blocked).toBeLessThan(MAX_SYNC_BLOCK_MS + 500);
    expect(storedRuns()).toEqual(['first']);
    expect(isSettled).toBe(false);
    // Which runs a read may find out of date: the waiting batch's, not the committed one's.
    expect(writer.waitsFor('locked')).toBe(true);
    expect(writer.waitsFor('first')).toBe(false);
    releaseLock();
    await settled;
    expect(storedRuns()).toEqual(['first', 'locked']);
    expect(writer.sync()).toBe(true);
    expect(writer.waitsFor('locked')).toBe(false);
  });

  it('keeps the WAL file bounded while runs are committed without pause (the checkpoint lets it start over)', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    // A batch that meets a lock goes to the worker: once it is settled, the worker is up and checkpoints.
    const releaseLock = holdWriteLock(store.path);
    writer.write(runBatch('first'));
    releaseLock();
    await writer.settled();
    for (let i = 0; i < 3000; i++) {
      writer.write(runBatch(`r${i}`));
      // An MCP server answers between commits; the worker checkpoints meanwhile.
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    writer.sync();
    expect(store.sqlite.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(3001);
    // About 24 KB of WAL per commit: 3,000 commits that never restart the WAL leave it near 70 MB.
    expect(statSync(`${store.path}-wal`).size).toBeLessThan(16 * 1024 * 1024);
  });

  // README: while another process holds the write lock, `mcp` and `serve` go on answering calls.
  it('keeps answers from waiting for commits while another process holds the write lock for long', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined);
    writer.write(runBatch('first'));
    await writer.settled();
    expect(writer.journaled).toBe(true);
    const releaseLock = holdWriteLock(store.path);
    for (let i = 0; i < 6; i++) {
      writer.write(runBatch(`held${i}`));
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(writer.journaled).toBe(true);
    }
    releaseLock();
    await writer.settled();
    expect(storedRuns()).toEqual(['first', 'held0', 'held1', 'held2', 'held3', 'held4', 'held5']);
  });

  it('has answers wait for commits once the oldest batch waited past maxBacklogMs while this thread kept its core busy', async () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined, { maxBacklogMs: 300 });
    writer.write(runBatch('first'));
    await writer.settled();
    // The held lock keeps the batch waiting; the busy loop is this thread answering a flood of calls.
    const releaseLock = holdWriteLock(store.path);
    // Idle first, so that the guard's utilization reading starts afresh with the flood.
    await new Promise((resolve) => setTimeout(resolve, 600));
    writer.write(runBatch('flood'));
    const end = performance.now() + 1200;
    while (performance.now() < end) {
      // Busy: no turn of the event loop, as under a flood of calls.
    }
    expect(writer.journaled).toBe(false);
    releaseLock();
    await writer.settled();
    expect(writer.journaled).toBe(true);
    expect(storedRuns()).toEqual(['first', 'flood']);
  });

  it('falls back to writing inline when its worker cannot open the database', () => {
    writer = new BackgroundRunWriter(store.sqlite, () => undefined, { nativeBinding: '/nonexistent/addon.node' });
    writer.write(runBatch('anyway'));
    writer.sync();
    expect(storedRuns()).toEqual(['anyway']);
  });
});

describe('InlineRunWriter', () => {
  it('keeps the batch and retries when the database stays locked, instead of failing', () => {
    store.sqlite.pragma('busy_timeout = 20');
    writer = new InlineRunWriter(store.sqlite, () => undefined);
    const releaseLock = holdWriteLock(store.path);
    expect(() => writer?.write(runBatch('later'))).not.toThrow();
    expect(storedRuns()).toEqual([]);
    expect(writer.waitsFor('later')).toBe(true);
    expect(writer.waitsFor('other')).toBe(false);
    releaseLock();
    writer.sync();
    expect(storedRuns()).toEqual(['later']);
    expect(writer.waitsFor('later')).toBe(false);
  });
});
