import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord, RunSummary } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let server: OpenAiServer;
let db: string;

beforeEach(async () => {
  // Every answer reports 10 input and 5 output tokens (the test server's usage).
  server = await startOpenAiServer(() => ({ content: 'Otters.' }));
  db = join(tempDir(), 'history.db');
  await setTestProvider(db, server.url, 'test-model', '--default');
  await runJson(['--db', db, 'import', 'resources/examples/summarise-then-title.json']);
});
afterEach(() => server.close());

const run = (text: string) => runCli(['--db', db, 'run', 'summarise_then_title', '--input', `text=${text}`, '--json']);
const list = (...args: string[]) => runJson<{ runs: RunSummary[] }>(['--db', db, 'runs', ...args]).then((r) => r.runs);

describe('run cost and history from the CLI (issue 16, points 4 and 8)', () => {
  it('prices a model and gives each step and run its cost; a run of an unpriced model has tokens and no cost', async () => {
    const unpriced = JSON.parse((await run('a')).stdout) as RunRecord;
    expect(unpriced.usage).toEqual({ inputTokens: 20, outputTokens: 10 });

    await runJson(['--db', db, 'providers', 'price', 'set', 'test-model', '--input', '1000', '--output', '2000']);
    const priced = JSON.parse((await run('b')).stdout) as RunRecord;
    // 10 × $1000/M + 5 × $2000/M = $0.02 a call, two calls.
    expect(priced.steps.find((s) => s.nodeId === 'summarise')?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      provider: 'test',
      model: 'test-model',
      cost: 0.02,
    });
    expect(priced.usage).toEqual({ inputTokens: 20, outputTokens: 10, cost: 0.04 });
    const [newest] = await list();
    expect(newest?.usage).toEqual({ inputTokens: 20, outputTokens: 10, cost: 0.04 });
    expect((await runCli(['--db', db, 'runs'])).stdout.split('\n')[0]).toContain('$0.04');
    expect((await runCli(['--db', db, 'runs', 'show', priced.id])).stdout).toContain('20→10 tokens, $0.04');
  });

  it('refuses a negative price, keeping the table as it was', async () => {
    await runJson(['--db', db, 'providers', 'price', 'set', 'test-model', '--input', '1', '--output', '2']);
    const refused = await runCli([
      '--db',
      db,
      'providers',
      'price',
      'set',
      'test-model',
      '--input',
      '-1',
      '--output',
      '2',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('inputPerMillion: a price cannot be negative');
    // An empty price was taken as 0.
    const empty = await runCli(['--db', db, 'providers', 'price', 'set', 'test-model', '--input', '', '--output', '2']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--input takes a number, got ""');
    const table = await runJson<{ prices: unknown[] }>(['--db', db, 'providers', 'price', 'list']);
    expect(table.prices).toEqual([{ provider: '', model: 'test-model', inputPerMillion: 1, outputPerMillion: 2 }]);
  });

  it('filters runs by status and trigger, pages, and deletes runs with their steps', async () => {
    await run('one');
    server.reply = () => ({ status: 400, body: '{"error":{"message":"no"}}' });
    await run('two');
    server.reply = () => ({ content: 'Otters.' });
    await run('three');
    expect((await list()).map((r) => r.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(await list('--status', 'failed')).toHaveLength(1);
    expect(await list('--trigger', 'mcp')).toEqual([]);
    expect(await list('--trigger', 'cli')).toHaveLength(3);
    const page2 = await list('--limit', '2', '--offset', '2');
    expect(page2).toHaveLength(1);
    expect((await runCli(['--db', db, 'runs', '--status', 'sideways'])).code).toBe(2);
    // A page SQLite cannot take ("datatype mismatch", with its stack) or one that is no number (read as the default).
    for (const [flag, value, says] of [
      ['--limit', '2.5', 'a whole number from 1 to 100,000'],
      ['--offset', '1e20', 'a whole number from 0 to 1,000,000,000'],
      ['--limit', 'lots', 'a whole number from 1 to 100,000'],
    ] as const) {
      const refused = await runCli(['--db', db, 'runs', flag, value]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(`flowbench: error [USAGE_ERROR]: ${flag} takes ${says}, got "${value}"\n`);
    }

    const deleted = await runJson<{ removed: number }>(['--db', db, 'runs', 'delete', page2[0]!.id]);
    expect(deleted.removed).toBe(1);
    expect(await list()).toHaveLength(2);
    const gone = await runCli(['--db', db, 'runs', 'show', page2[0]!.id]);
    expect(gone.stderr).toContain('[RUN_NOT_FOUND]');
  });

  it('stores why each retried attempt failed (the example retries its summary once)', async () => {
    server.reply = (_, i) =>
      i === 0 ? { status: 500, body: '{"error":{"message":"overloaded"}}' } : { content: 'Otters.' };
    const record = JSON.parse((await run('retry')).stdout) as RunRecord;
    const stored = await runJson<RunRecord>(['--db', db, 'runs', 'show', record.id]);
    const summarise = stored.steps.find((s) => s.nodeId === 'summarise');
    expect(summarise).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(summarise?.retries).toEqual([
      { code: 'PROVIDER_ERROR', message: expect.stringContaining('500') as unknown },
    ]);
  });
});
