import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { connectStdio } from '../helpers/mcp';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

/**
 * Seed 004's transitions, from its own minimal example: onFailure {next, fail: true}
 * runs next and then fails the run; {fail: false} goes on; `fail` defaults to true;
 * startStepId is where the run starts; complete: true ends the run; a transition
 * back to an earlier step is a loop.
 */
const tempDir = useTempDir();
let model: OpenAiServer;
let db: string;

beforeEach(async () => {
  model = await startOpenAiServer();
  db = join(tempDir(), 'seed-004.db');
  await setTestProvider(db, model.url, 'test-model', '--default');
});
afterEach(() => model.close());

type Step = { id: string; transitions?: Record<string, Record<string, unknown>>; [key: string]: unknown };
type Definition = { steps: Step[]; startStepId?: string; [key: string]: unknown };

const minimal = (): Definition =>
  JSON.parse(readFileSync('tests/fixtures/formats/flow-definition-minimal.json', 'utf8')) as Definition;

/** Imports a variant of the seed's example; returns its id and the warnings the import listed. */
async function importVariant(change: (doc: Definition) => void = () => {}) {
  const doc = minimal();
  change(doc);
  const file = join(tempDir(), `variant-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return runJson<{ id: string; problems: unknown[]; warnings: { code: string; message: string; nodeId?: string }[] }>([
    '--db',
    db,
    'import',
    file,
  ]);
}

/** The system prompt of each model request: which step asked. */
const stepOf = (index: number) => {
  const first = model.requests[index]?.body.messages?.[0];
  return first?.role === 'system' ? String(first.content) : '(no prompt)';
};

/** Answers JSON from every step, and 400 from the requests whose index is listed. */
function answer(failing: readonly number[] = []) {
  model.reply = (_request, index) =>
    failing.includes(index)
      ? { status: 400 }
      : { content: JSON.stringify({ draft: `draft ${index}`, recommendations: ['ship'] }) };
}

async function run(id: string): Promise<{ code: number | null; record: RunRecord }> {
  const result = await runCli(['--db', db, 'run', id, '--input', 'problemStatement=Slow checkout', '--json']);
  return { code: result.code, record: JSON.parse(result.stdout) as RunRecord };
}

const statuses = (record: RunRecord) =>
  record.steps.map((s) => `${s.nodeId}${s.iteration ? `#${s.iteration}` : ''}:${s.status}`);

describe('seed 004 transitions', () => {
  it('onFailure {next, fail: true}: the next step runs, then the run ends failed with the first error', async () => {
    const { id } = await importVariant();
    answer([0]);
    const { code, record } = await run(id);
    expect(code).toBe(1);
    expect(record.status).toBe('failed');
    expect(record.error).toMatchObject({ code: 'PROVIDER_ERROR', nodeId: 'gather_requirements' });
    expect(statuses(record)).toEqual([
      'input:succeeded',
      'gather_requirements:failed',
      'generate_solution:skipped',
      'review_solution:skipped',
      'abort_flow:succeeded',
      'result:succeeded',
    ]);
    expect(model.requests).toHaveLength(2);
  });

  it('onFailure {next, fail: false}: the next step runs and the run succeeds', async () => {
    const { id } = await importVariant();
    answer([1]);
    const { code, record } = await run(id);
    expect(code).toBe(0);
    expect(record.status).toBe('succeeded');
    expect(record.steps.find((s) => s.nodeId === 'generate_solution')?.status).toBe('failed');
    expect(record.steps.find((s) => s.nodeId === 'abort_flow')?.status).toBe('succeeded');
  });

  it('onFailure {next} without fail: fail defaults to true', async () => {
    const { id } = await importVariant();
    answer([2]);
    const { record } = await run(id);
    expect(record).toMatchObject({ status: 'failed', error: { nodeId: 'review_solution' } });
    expect(record.steps.find((s) => s.nodeId === 'abort_flow')?.status).toBe('succeeded');
  });

  it('onFailure {fail: false} without next ends the run without failing', async () => {
    const { id } = await importVariant((doc) => {
      (doc.steps[2] as Step).transitions = { onSuccess: { complete: true }, onFailure: { fail: false } };
    });
    answer([2]);
    const { code, record } = await run(id);
    expect(code).toBe(0);
    expect(record.status).toBe('succeeded');
    expect(record.steps.find((s) => s.nodeId === 'abort_flow')?.status).toBe('skipped');
  });

  it('startStepId: steps before it that nothing reaches, and orphan steps, do not run and are reported', async () => {
    const { id, warnings } = await importVariant((doc) => {
      doc.startStepId = 'generate_solution';
      doc.steps.push({ id: 'orphan', name: 'Orphan', agentVersionId: 'eeeeeeee-1111-2222-3333-444444444444' });
    });
    expect(warnings.filter((w) => w.code === 'UNREACHABLE_NODE').map((w) => w.nodeId)).toEqual([
      'gather_requirements',
      'orphan',
    ]);
    answer();
    const { record } = await run(id);
    expect(record.status).toBe('succeeded');
    expect(statuses(record)).toContain('gather_requirements:skipped');
    expect(statuses(record)).toContain('orphan:skipped');
    expect(model.requests).toHaveLength(2);
    expect(stepOf(0)).toBe('(no prompt)');
  });

  it('complete: true ends the run at once; a next beside it is reported and not taken', async () => {
    const { id, warnings } = await importVariant((doc) => {
      (doc.steps[0] as Step).transitions = { onSuccess: { next: 'generate_solution', complete: true } };
    });
    expect(warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining('says complete: true and next "generate_solution"'),
    );
    answer();
    const { record } = await run(id);
    expect(record.status).toBe('succeeded');
    expect(model.requests).toHaveLength(1);
    expect(record.steps.find((s) => s.nodeId === 'generate_solution')?.status).toBe('skipped');
  });
});

describe('seed 004 loops', () => {
  /** review → generate again when the review fails, as a loop with the default limit. */
  const reviewAgain = (doc: Definition) => {
    (doc.steps[2] as Step).transitions = {
      onSuccess: { complete: true },
      onFailure: { next: 'generate_solution', fail: false },
    };
  };

  it('goes back to an earlier step: each pass is recorded, and the limit is said at import', async () => {
    const { id, warnings } = await importVariant(reviewAgain);
    expect(warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining('step "review_solution" goes back to "generate_solution": a loop'),
    );
    answer([2]); // the first review fails once
    const { code, record } = await run(id);
    expect(code).toBe(0);
    expect(record.status).toBe('succeeded');
    expect(statuses(record)).toEqual(
      expect.arrayContaining([
        'generate_solution:succeeded',
        'review_solution:failed',
        'generate_solution#2:succeeded',
        'review_solution#2:succeeded',
        'result:succeeded',
      ]),
    );
    expect(record.output).toMatchObject({ kind: 'structured', data: { solution: 'draft 3', nextActions: ['ship'] } });
  });

  it('ends with LOOP_LIMIT on the step that wants another pass, over MCP too', async () => {
    const { id } = await importVariant(reviewAgain);
    expect((await runCli(['--db', db, 'agents', 'set', 'Ревью решения', '--system', 'You review.'])).code).toBe(0);
    for (const name of ['Сбор требований', 'Проектирование решения', 'Ревью решения', 'Прерывание']) {
      expect((await runCli(['--db', db, 'agents', 'review', name])).code).toBe(0);
    }
    expect((await runCli(['--db', db, 'publish', id])).code).toBe(0);
    // Every review fails: generate, review, generate, review, generate, review, then the limit.
    model.reply = (request) =>
      request.body.messages?.some((m) => m.role === 'system' && m.content === 'You review.')
        ? { status: 400 }
        : { content: JSON.stringify({ draft: 'd' }) };
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({
        name: 'solution-workshop',
        arguments: { problemStatement: 'Slow checkout' },
      });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      expect(text).toContain('LOOP_LIMIT');
      expect(text).toContain('after pass 3');
    } finally {
      await client.close();
    }
    const { runs } = await runJson<{ runs: { id: string }[] }>(['--db', db, 'runs', 'list']);
    const stored = await runJson<RunRecord>(['--db', db, 'runs', 'show', runs[0]?.id ?? '']);
    expect(stored.error).toMatchObject({ code: 'LOOP_LIMIT', nodeId: 'review_solution' });
    expect(statuses(stored).filter((s) => s.startsWith('review_solution'))).toEqual([
      'review_solution:failed',
      'review_solution#2:failed',
      'review_solution#3:failed',
    ]);
  });
});

describe('seed 004 memory', () => {
  it('memoryWrites keep each answer across runs; memoryReads give a step the last entries in its messages; flowbench memory shows and clears them', async () => {
    const { id, warnings } = await importVariant((doc) => {
      doc.memory = { sharedChannels: [{ id: 'context', retentionVersions: 3 }] };
      (doc.steps[1] as Step).memoryWrites = [
        { channel: 'decision-log', mode: 'AGENT_OUTPUT' },
        { channel: 'decision-log', mode: 'STATIC', payload: { event: 'bootstrap' } },
      ];
    });
    expect(warnings.map((w) => w.message).filter((m) => m.includes('memory'))).toEqual([]);
    let call = 0;
    model.reply = () => ({ content: JSON.stringify({ draft: `answer ${++call}` }) });
    expect((await run(id)).record.status).toBe('succeeded');
    // The first run read empty channels: the messages are the step's own.
    expect(model.requests[0]?.body.messages).toHaveLength(2);
    expect((await run(id)).record.status).toBe('succeeded');
    const second = model.requests[3]?.body.messages ?? [];
    expect(second).toEqual([
      { role: 'system', content: 'Ты бизнес-аналитик. Собери контекст и требования.' },
      { role: 'user', content: 'Memory "context", the last 1 entry, oldest first:\n- {"draft":"answer 1"}' },
      { role: 'user', content: 'problemStatement: Slow checkout\nconstraints: ' },
    ]);
    expect(model.requests[4]?.body.messages).toEqual([
      {
        role: 'user',
        content: 'Memory "context", the last 2 entries, oldest first:\n- {"draft":"answer 1"}\n- {"draft":"answer 4"}',
      },
      {
        role: 'user',
        content:
          'Memory "decision-log", the last 2 entries, oldest first:\n- {"draft":"answer 2"}\n- {"event":"bootstrap"}',
      },
      { role: 'user', content: 'problemStatement: Slow checkout\nconstraints: ' },
    ]);

    const shown = await runJson<{
      channels: { channel: string; entries: number; readers: string[]; writers: string[]; settings?: unknown }[];
    }>(['--db', db, 'memory', id]);
    expect(shown.channels.map((c) => [c.channel, c.entries, c.readers, c.writers])).toEqual([
      ['context', 2, ['gather_requirements', 'generate_solution'], ['gather_requirements']],
      ['decision-log', 4, ['generate_solution'], ['generate_solution']],
    ]);
    expect(shown.channels[0]?.settings).toEqual({ id: 'context', retentionVersions: 3 });
    const text = await runCli(['--db', db, 'memory', id, '--channel', 'context']);
    expect(text.stdout).toContain('context  2 entries  keeps: last 3 versions');
    expect(text.stdout).toContain('gather_requirements  {"draft":"answer 4"}');
    // An MCP client's call reads and writes the same channels (the published version's runs).
    for (const name of ['Сбор требований', 'Проектирование решения', 'Ревью решения', 'Прерывание']) {
      expect((await runCli(['--db', db, 'agents', 'review', name])).code).toBe(0);
    }
    expect((await runCli(['--db', db, 'publish', id])).code).toBe(0);
    const { client } = await connectStdio(db);
    try {
      const called = await client.callTool({
        name: 'solution-workshop',
        arguments: { problemStatement: 'Slow checkout' },
      });
      expect(called.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(String(model.requests[6]?.body.messages?.[1]?.content)).toContain('Memory "context", the last 2 entries');
    const afterMcp = await runJson<{
      channels: { channel: string; entries: number; recent: { flowVersion?: number }[] }[];
    }>(['--db', db, 'memory', id, '--channel', 'context']);
    expect(afterMcp.channels[0]?.entries).toBe(3);
    expect(afterMcp.channels[0]?.recent.at(-1)?.flowVersion).toBe(1);
    const cleared = await runJson<{ removed: number }>(['--db', db, 'memory', id, '--channel', 'context', '--clear']);
    expect(cleared.removed).toBe(3);
    const unknown = await runCli(['--db', db, 'memory', id, '--channel', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('CHANNEL_NOT_FOUND');
    // Export writes the channels back as the definition's shared channels.
    const exported = await runCli(['--db', db, 'export', id, '--format', 'flow-definition-json']);
    expect(JSON.parse(exported.stdout)).toMatchObject({
      memory: { sharedChannels: [{ id: 'context', retentionVersions: 3 }] },
    });
  });
});

describe('seed 004 outputs', () => {
  it('summaryFields give the run summary its values, and export back as written', async () => {
    const { id, warnings } = await importVariant();
    expect(warnings.map((w) => w.message).join('\n')).not.toContain('summary');
    model.reply = (_request, index) => ({
      content: JSON.stringify({ draft: `d${index}`, summary: `step ${index} in short` }),
    });
    const { record } = await run(id);
    expect(record.status).toBe('succeeded');
    expect(record.output).toMatchObject({ summary: { 'steps.generate_solution.output.summary': 'step 1 in short' } });
    const summary = await runCli(['--db', db, 'runs', 'show', record.id, '--format', 'summary']);
    expect(summary.stdout.split('\n')[1]).toBe('steps.generate_solution.output.summary: step 1 in short');
    const exported = await runCli(['--db', db, 'export', id, '--format', 'flow-definition-json']);
    expect(JSON.parse(exported.stdout)).toMatchObject({
      outputs: { summaryFields: ['steps.generate_solution.output.summary'] },
    });
  });
});
