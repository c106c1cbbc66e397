import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let server: OpenAiServer;
let db: string;
/** How many summaries the model has written: each answer differs, so a reused one is recognisable. */
let summaries = 0;

beforeEach(async () => {
  summaries = 0;
  server = await startOpenAiServer((request) => {
    const prompt = JSON.stringify(request.body.messages?.at(-1)?.content ?? '');
    if (prompt.startsWith('"Write a title')) return { content: `Title for: ${prompt.slice(-40, -1)}` };
    summaries++;
    return { content: `Summary number ${summaries}.` };
  });
  db = join(tempDir(), 'from.db');
  await setTestProvider(db, server.url, 'test-model', '--default');
  await runJson(['--db', db, 'import', 'resources/examples/summarise-then-title.json']);
});
afterEach(() => server.close());

const runWhole = () => runJson<RunRecord>(['--db', db, 'run', 'summarise_then_title', '--input', 'text=Otters.']);

describe('flowbench run --from (run from here)', () => {
  it('runs only the node and what depends on it, reusing the upstream outputs of the chosen run', async () => {
    const first = await runWhole();
    expect(server.requests).toHaveLength(2);

    const result = await runCli(['--db', db, 'run', 'summarise_then_title', '--from', 'title', '--reuse', first.id]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`↺ summarise  reused from run ${first.id.slice(-8)}`);
    expect(result.stderr).toContain('✓ title');
    // Only the title node asked the model again, with the summary the first run stored.
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]?.body.messages)).toContain('Summary number 1.');
    expect(summaries).toBe(1);
    expect(result.stdout).toContain('Summary number 1.');

    const { runs } = await runJson<{ runs: { id: string }[] }>(['--db', db, 'runs']);
    const record = await runJson<RunRecord>(['--db', db, 'runs', 'show', runs[0]!.id]);
    expect(record.reuse).toEqual({ fromNodeId: 'title', runId: first.id, nodeIds: ['input', 'summarise'] });
    expect(record.inputs).toEqual(first.inputs);
    expect(record.steps.find((s) => s.nodeId === 'summarise')).toMatchObject({
      status: 'succeeded',
      attempts: 0,
      output: 'Summary number 1.',
    });
    expect(record.steps.find((s) => s.nodeId === 'title')).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it("reuses the flow's latest run when --reuse is left out", async () => {
    await runWhole();
    const second = await runWhole();
    const record = await runJson<RunRecord>(['--db', db, 'run', 'summarise_then_title', '--from', 'summarise']);
    expect(record.reuse).toEqual({ fromNodeId: 'summarise', runId: second.id, nodeIds: ['input'] });
    expect(summaries).toBe(3);
  });

  it('refuses what it cannot honour, with a clear error and exit 1', async () => {
    const noRun = await runCli(['--db', db, 'run', 'summarise_then_title', '--from', 'title']);
    expect(noRun.code).toBe(1);
    expect(noRun.stderr).toContain('[RUN_NOT_FOUND]');

    const first = await runWhole();
    const noNode = await runCli(['--db', db, 'run', 'summarise_then_title', '--from', 'nope', '--reuse', first.id]);
    expect(noNode.code).toBe(1);
    expect(noNode.stderr).toContain('error [NODE_NOT_FOUND]: flow "Summarise then title" has no node "nope"');

    const badRun = await runCli([
      '--db',
      db,
      'run',
      'summarise_then_title',
      '--from',
      'title',
      '--reuse',
      'no-such-run',
    ]);
    expect(badRun.code).toBe(1);
    expect(badRun.stderr).toContain('[RUN_NOT_FOUND]');

    const reuseAlone = await runCli(['--db', db, 'run', 'summarise_then_title', '--reuse', first.id]);
    expect(reuseAlone.code).toBe(2);

    // A run whose summary failed has nothing to hand the title node.
    server.reply = () => ({ status: 400, body: JSON.stringify({ error: { message: 'bad request' } }) });
    const failed = await runCli(['--db', db, 'run', 'summarise_then_title', '--input', 'text=x', '--json']);
    const failedRun = JSON.parse(failed.stdout) as RunRecord;
    expect(failedRun.status).toBe('failed');
    const refused = await runCli([
      '--db',
      db,
      'run',
      'summarise_then_title',
      '--from',
      'title',
      '--reuse',
      failedRun.id,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error [REUSE_UNAVAILABLE]: node "summarise" (upstream of "title") ended failed in run ${failedRun.id}`,
    );
    const { runs } = await runJson<{ runs: unknown[] }>(['--db', db, 'runs']);
    expect(runs).toHaveLength(2);
  });
});

describe('flowbench run --to (run to here)', () => {
  it('runs only the node and the nodes it needs, prints its output, and stores the run as a run to it', async () => {
    const result = await runCli([
      '--db',
      db,
      'run',
      'summarise_then_title',
      '--input',
      'text=Otters.',
      '--to',
      'summarise',
    ]);
    expect(result.code).toBe(0);
    // The title node after it never asked the model.
    expect(server.requests).toHaveLength(1);
    expect(result.stdout.trim()).toBe('Summary number 1.');
    expect(result.stderr).toContain('– title skipped');

    const { runs } = await runJson<{ runs: { id: string }[] }>(['--db', db, 'runs']);
    const record = await runJson<RunRecord>(['--db', db, 'runs', 'show', runs[0]!.id]);
    expect(record).toMatchObject({ status: 'succeeded', toNodeId: 'summarise' });
    expect(record.output).toBeUndefined();
    expect(record.steps.find((s) => s.nodeId === 'result')?.status).toBe('skipped');
    const shown = await runCli(['--db', db, 'runs', 'show', runs[0]!.id]);
    expect(shown.stdout).toContain('run to summarise: it and the nodes it needs ran, nothing after it');

    const noNode = await runCli(['--db', db, 'run', 'summarise_then_title', '--input', 'text=x', '--to', 'nope']);
    expect(noNode.code).toBe(1);
    expect(noNode.stderr).toContain('error [NODE_NOT_FOUND]: flow "Summarise then title" has no node "nope"');
  });
});

/** The summarise-then-title example as another flow, its summarise node changed as given. */
async function importSummariser(id: string, toolName: string, summarise: Record<string, unknown>): Promise<void> {
  const file = join(tempDir(), `${id}.json`);
  const example = JSON.parse(readFileSync('resources/examples/summarise-then-title.json', 'utf8')) as {
    id: string;
    tool: { name: string };
    nodes: { id: string }[];
  };
  example.id = id;
  example.tool.name = toolName;
  example.nodes = example.nodes.map((n) => (n.id === 'summarise' ? { ...n, ...summarise } : n));
  writeFileSync(file, JSON.stringify(example));
  await runJson(['--db', db, 'import', file]);
}

describe('flowbench run with a pinned output', () => {
  it('takes the pin instead of running the node, as the editor does, and says so', async () => {
    await importSummariser('pinned', 'pinned_summary', { pin: { output: 'The pinned summary.' } });

    const result = await runCli(['--db', db, 'run', 'pinned_summary', '--input', 'text=Otters.']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('⊙ summarise  pinned output');
    // Only the title was asked for, of the pinned summary.
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain('The pinned summary.');

    // The stored run says it too, whatever the flow is now: the step is marked, the title's is not.
    const {
      runs: [latest],
    } = await runJson<{ runs: { id: string }[] }>(['--db', db, 'runs', 'list', '--flow', 'pinned']);
    const stored = await runJson<RunRecord>(['--db', db, 'runs', 'show', latest?.id ?? '']);
    expect(stored.steps.find((s) => s.nodeId === 'summarise')).toMatchObject({ pinned: true, attempts: 0 });
    expect(stored.steps.find((s) => s.nodeId === 'title')).not.toHaveProperty('pinned');
    const shown = await runCli(['--db', db, 'runs', 'show', latest?.id ?? '']);
    expect(shown.stdout).toMatch(/summarise.*\n\s+pinned output\n/);
  });

  it('a deactivated node’s step is stored as passed over', async () => {
    await importSummariser('deactivated', 'deactivated_summary', { disabled: true });
    const run = await runJson<RunRecord>(['--db', db, 'run', 'deactivated_summary', '--input', 'text=Otters.']);
    const stored = await runJson<RunRecord>(['--db', db, 'runs', 'show', run.id]);
    expect(stored.steps.find((s) => s.nodeId === 'summarise')).toMatchObject({ passedOver: true, attempts: 0 });
    expect((await runCli(['--db', db, 'runs', 'show', run.id])).stdout).toContain('passed over: deactivated');
  });
});
