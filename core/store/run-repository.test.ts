import { uptime } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFlow } from '../engine/run-flow';
import { FlowSchema, type Flow } from '../model/flow';
import { shortRunId } from '../model/run';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { useTempDir } from '../../tests/helpers/temp';
import { openDatabase, type FlowbenchDatabase } from './database';
import { FlowRepository } from './flow-repository';
import { createRunRecorder } from './run-recorder';
import { RunLog } from './run-log';
import { RunRepository } from './run-repository';
import { holdWriteLock } from '../../tests/helpers/write-lock';

const tempDir = useTempDir();
let store: FlowbenchDatabase;
let log: RunLog;
let runs: RunRepository;
const flow = greeterFlow();
const noLlm = {
  generate: () => Promise.reject(new Error('no model in this test')),
  runAgent: () => Promise.reject(new Error('no model in this test')),
};

async function recordRun(inputs: Record<string, unknown>, recorded: Flow = flow) {
  const recorder = createRunRecorder(log, { flow: recorded, trigger: 'editor' });
  const record = await runFlow({ flow: recorded, inputs, llm: noLlm, listeners: [recorder] });
  // Stored before the test reads it, also when a loaded CI machine starts the writer's thread late.
  await log.committed();
  return record;
}

/** A database with the test flow, its run log writing on a worker thread (`background`) or inline. */
function openRuns(background: boolean) {
  store = openDatabase(join(tempDir(), 'runs.db'));
  new FlowRepository(store).create(flow);
  log = new RunLog(store, { background });
  runs = new RunRepository(store, log);
}

function closeRuns() {
  log.close();
  store.close();
}

describe.each([
  ['inline', false],
  ['on a worker thread', true],
])('RunRepository writing %s', (_, background) => {
  beforeEach(() => openRuns(background));
  afterEach(closeRuns);

  it('finds a run by its short form (its id’s last 8 characters) or a unique start; run ids sort by time', async () => {
    const first = (await recordRun({ who: 'Ada' })).runId;
    const second = (await recordRun({ who: 'Bo' })).runId;
    // Time-ordered: a later run's id sorts after an earlier one's, and the two share their time's first characters.
    expect(second > first).toBe(true);
    expect(second.slice(0, 6)).toBe(first.slice(0, 6));
    expect(runs.get(shortRunId(second)).id).toBe(second);
    expect(runs.get(first.slice(0, 30)).id).toBe(first);
    // A start both ids share names no single run.
    expect(() => runs.get(first.slice(0, 6))).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }));
  });

  it('stores a run with its steps, resolved inputs and output', async () => {
    const { runId } = await recordRun({ who: 'Ada' });
    const record = runs.get(runId);
    expect(record).toMatchObject({
      id: runId,
      flowId: 'test-flow',
      flowName: 'Test flow',
      trigger: 'editor',
      status: 'succeeded',
      inputs: { who: 'Ada' },
      output: { kind: 'return_values', values: [{ id: 'r0', text: 'Hello Ada' }] },
    });
    expect(record.steps).toEqual([
      expect.objectContaining({ nodeId: 'input', status: 'succeeded', attempts: 1, output: { who: 'Ada' } }),
      expect.objectContaining({
        nodeId: 'greet',
        status: 'succeeded',
        input: { 'inputs.who': 'Ada' },
        output: 'Hello Ada',
      }),
      expect.objectContaining({ nodeId: 'result', status: 'succeeded' }),
    ]);
    expect(runs.snapshot(runId)).toEqual(flow);
    expect(runs.get(runId.slice(0, 8)).id).toBe(runId);
    // The short form the editor shows names the run for its snapshot too.
    expect(runs.snapshot(shortRunId(runId))).toEqual(flow);
    expect(() => runs.snapshot('nope')).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }));
  });

  it('stores one snapshot for many runs of the same flow', async () => {
    for (const who of ['a', 'b', 'c']) await recordRun({ who });
    expect(runs.count()).toBe(3);
    expect(store.sqlite.prepare('SELECT count(*) FROM snapshots').pluck().get()).toBe(1);
    expect(runs.list({ flowId: 'test-flow', limit: 2 })).toHaveLength(2);
  });

  it('marks runs of a process that died as interrupted, not running forever', () => {
    log.start({ runId: 'crashed', flow, inputs: {}, trigger: 'cli', startedAt: Date.now() });
    // Pretend another process started it and then died.
    store.sqlite.prepare("UPDATE runs SET host_pid = 2147483646 WHERE id = 'crashed'").run();
    log.start({ runId: 'mine', flow, inputs: {}, trigger: 'cli', startedAt: Date.now() });
    expect(runs.markInterrupted()).toBe(1);
    expect(runs.get('crashed')).toMatchObject({
      status: 'interrupted',
      error: {
        code: 'RUN_INTERRUPTED',
        message: expect.stringContaining('(pid 2147483646) stopped before the run ended'),
      },
    });
    expect(runs.get('mine').status).toBe('running');
  });

  it('marks runs begun before the machine restarted as interrupted, though a process now has their pid', () => {
    const beforeBoot = Date.now() - uptime() * 1000 - 60_000;
    // A live process (the parent of the test's process) holding the pid of one left by a restart…
    log.start({ runId: 'before-restart', flow, inputs: {}, trigger: 'cli', startedAt: beforeBoot });
    store.sqlite.prepare("UPDATE runs SET host_pid = ? WHERE id = 'before-restart'").run(process.ppid);
    // … and this process's own pid, held before it started by a predecessor (a container's pid 1).
    log.start({ runId: 'predecessor', flow, inputs: {}, trigger: 'cli', startedAt: performance.timeOrigin - 60_000 });
    // The same live process, its run begun since: it goes on.
    log.start({ runId: 'alive', flow, inputs: {}, trigger: 'cli', startedAt: Date.now() });
    store.sqlite.prepare("UPDATE runs SET host_pid = ? WHERE id = 'alive'").run(process.ppid);
    log.start({ runId: 'mine', flow, inputs: {}, trigger: 'cli', startedAt: Date.now() });
    expect(runs.markInterrupted()).toBe(2);
    expect(runs.get('before-restart')).toMatchObject({
      status: 'interrupted',
      error: { code: 'RUN_INTERRUPTED', message: expect.stringContaining('or the computer restarted') },
    });
    expect(runs.get('predecessor').status).toBe('interrupted');
    expect(runs.get('alive').status).toBe('running');
    expect(runs.get('mine').status).toBe('running');
  });

  it('refuses an unknown run id', () => {
    expect(() => runs.get('nope')).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }));
  });

  it('skips the records of a flow deleted before they were written, and keeps the other runs of the batch', async () => {
    const other = FlowSchema.parse({ ...flow, id: 'other-flow', tool: { name: 'other_tool' } });
    new FlowRepository(store).create(other);
    const gone = await recordRun({ who: 'gone' }, other);
    const kept = await recordRun({ who: 'kept' });
    // Both runs wait in the group-commit queue; the flow goes before they are written.
    store.sqlite.prepare("DELETE FROM flows WHERE id = 'other-flow'").run();
    expect(runs.get(kept.runId).status).toBe('succeeded');
    expect(() => runs.get(gone.runId)).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }));
    expect(runs.count()).toBe(1);
  });

  it('writes what is queued when it closes', async () => {
    const { runId } = await recordRun({ who: 'last' });
    log.close();
    expect(store.sqlite.prepare('SELECT status FROM runs WHERE id = ?').pluck().get(runId)).toBe('succeeded');
    log = new RunLog(store);
  });
});

// Inline, a read itself waits for the lock (busy_timeout); on the worker thread it stops waiting after a second.
describe('RunRepository writing on a worker thread that is behind', () => {
  beforeEach(() => openRuns(true));
  afterEach(closeRuns);

  it('says a run whose records wait for the database is not written yet, not that it does not exist', async () => {
    const releaseLock = holdWriteLock(join(tempDir(), 'runs.db'));
    const recorder = createRunRecorder(log, { flow, trigger: 'editor' });
    const { runId } = await runFlow({ flow, inputs: { who: 'Ada' }, llm: noLlm, listeners: [recorder] });
    expect(() => runs.get(runId)).toThrow(
      expect.objectContaining({ code: 'DATABASE_BUSY', message: expect.stringContaining('not in the database yet') }),
    );
    expect(() => runs.snapshot(runId)).toThrow(expect.objectContaining({ code: 'DATABASE_BUSY' }));
    releaseLock();
    await log.committed();
    expect(runs.get(runId)).toMatchObject({ id: runId, status: 'succeeded', inputs: { who: 'Ada' } });
  });

  it('refuses to list runs, show a run as it was, or delete it while its records wait, and does each once they are written', async () => {
    const earlier = (await recordRun({ who: 'Bo' })).runId;
    // A run whose start is stored, and whose end waits with the database locked.
    log.start({ runId: 'going', flow, inputs: { who: 'Cy' }, trigger: 'editor', startedAt: Date.now() });
    expect(runs.get('going').status).toBe('running');
    const releaseLock = holdWriteLock(join(tempDir(), 'runs.db'));
    const { runId } = await runFlow({
      flow,
      inputs: { who: 'Ada' },
      llm: noLlm,
      listeners: [createRunRecorder(log, { flow, trigger: 'editor' })],
    });
    log.enqueue(
      { type: 'run.finished', runId: 'going', status: 'succeeded', durationMs: 1, at: Date.now() },
      { seq: new Map() },
    );

    // Without the waiting run, the list would look complete; before, it was one run short.
    expect(() => runs.list({ flowId: flow.id })).toThrow(
      expect.objectContaining({ code: 'DATABASE_BUSY', message: expect.stringContaining('cannot be listed yet') }),
    );
    // Stored as running, its end still waiting: showing it running would be out of date.
    expect(() => runs.get('going')).toThrow(
      expect.objectContaining({
        code: 'DATABASE_BUSY',
        message: expect.stringContaining('not all in the database yet'),
      }),
    );
    // Deleted now, it would come back when its records are written.
    expect(() => runs.delete([earlier, runId])).toThrow(
      expect.objectContaining({
        code: 'DATABASE_BUSY',
        message: expect.stringContaining(`"${runId}" cannot be deleted yet`),
      }),
    );
    // A run with nothing waiting reads as usual.
    expect(runs.get(earlier).status).toBe('succeeded');

    releaseLock();
    await log.committed();
    expect(runs.list({ flowId: flow.id }).map((run) => run.id)).toEqual([runId, 'going', earlier]);
    expect(runs.get('going').status).toBe('succeeded');
    expect(runs.delete([earlier, runId])).toBe(2);
    expect(runs.list({ flowId: flow.id }).map((run) => run.id)).toEqual(['going']);
  });
});
