import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestRunSummary } from '../../core/model/test-cases';
import { TEST_CONCURRENCY } from '../../core/services/test-service';
import { BIN, ROOT, runCli, runJson, setTestProvider } from '../helpers/cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let server: OpenAiServer;
let db: string;

const example = JSON.parse(readFileSync(join(ROOT, 'resources/examples/summarise-then-title.json'), 'utf8')) as Record<
  string,
  unknown
>;

/** The example flow with test cases, written to a file to import, as a person would bring one. */
function flowFile(name: string, fields: Record<string, unknown>): string {
  const path = join(tempDir(), `${name}.json`);
  const tool = { ...(example.tool as object), name };
  writeFileSync(path, JSON.stringify({ ...example, id: name, name, tool, ...fields }));
  return path;
}

const passing = {
  id: 'otters',
  name: 'mentions otters',
  inputs: { text: 'Otters.' },
  expectations: [{ kind: 'contains', value: 'Otters' }],
};
const failing = {
  id: 'wrong',
  name: 'fails on purpose',
  inputs: { text: 'Otters.' },
  expectations: [{ kind: 'equals', value: 'Something else entirely' }],
};
const judged = {
  id: 'judged',
  name: 'a judge agrees',
  inputs: { text: 'Otters.', sentences: 1 },
  expectations: [
    { kind: 'regex', pattern: '^Otters, Briefly' },
    { kind: 'judge', criteria: 'The answer has a title and a summary.' },
  ],
};

beforeEach(async () => {
  server = await startOpenAiServer((request) => {
    const last = JSON.stringify(request.body.messages?.at(-1)?.content ?? '');
    if (last.startsWith('"Criteria:')) return { content: 'YES\nIt has both.' };
    return { content: last.startsWith('"Write a title') ? 'Otters, Briefly' : 'Otters hold hands while they sleep.' };
  });
  db = join(tempDir(), 'tests.db');
  await setTestProvider(db, server.url, 'test-model', '--default');
});
afterEach(() => server.close());

describe('flowbench test', () => {
  it('runs every test case, prints a pass/fail table and exits 1 when one fails', async () => {
    await runJson(['--db', db, 'import', flowFile('tested', { tests: [passing, failing, judged] })]);
    const result = await runCli(['--db', db, 'test', 'tested']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✓ mentions otters {2}passed/);
    expect(result.stdout).toMatch(/✗ fails on purpose {2}failed/);
    expect(result.stdout).toContain(
      '    equals "Something else entirely": got "Otters, Briefly\\n\\nOtters hold hands while they sleep."',
    );
    expect(result.stdout).toMatch(/✓ a judge agrees {2}passed/);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('2 passed, 1 failed');
    // The judge was asked with the criteria and the answer it checks.
    const judge = server.requests.find((r) => JSON.stringify(r.body.messages).includes('Criteria:'));
    expect(judge?.body.messages?.at(-1)?.content).toBe(
      'Criteria: The answer has a title and a summary.\n\nAnswer to check:\nOtters, Briefly\n\nOtters hold hands while they sleep.',
    );

    const json = await runCli(['--db', db, 'test', 'tested', '--json']);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout) as TestRunSummary;
    expect(summary).toMatchObject({ passed: 2, failed: 1 });
    expect(summary.results.map((r) => [r.id, r.status])).toEqual([
      ['otters', 'passed'],
      ['wrong', 'failed'],
      ['judged', 'passed'],
    ]);
    // Each case is a stored run, told apart from other runs by its trigger.
    const { runs } = await runJson<{ runs: { id: string; trigger: string }[] }>(['--db', db, 'runs']);
    expect(runs.filter((r) => r.trigger === 'test')).toHaveLength(6);
    expect(runs.map((r) => r.id)).toContain(summary.results[0]?.runId);

    // Its reader gone before the table (`flowbench test tested | head -1`): still exit 1, where it exited 0.
    const unread = spawn(process.execPath, [BIN, '--db', db, 'test', 'tested'], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '' },
    });
    unread.stdout.destroy();
    expect(await new Promise((resolve) => unread.on('close', resolve))).toBe(1);

    const one = await runCli(['--db', db, 'test', 'tested', '--case', 'otters']);
    expect(one.code).toBe(0);
    expect(one.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    expect((await runCli(['--db', db, 'test', 'tested', '--case', 'ghost'])).code).toBe(2);
  });

  it('gates publishing on the test cases when the flow says so, naming the cases that failed', async () => {
    await runJson(['--db', db, 'import', flowFile('gated', { tests: [passing, failing], testsGatePublish: true })]);
    const refused = await runCli(['--db', db, 'publish', 'gated']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error [TESTS_FAILED]: not published: 1 of 2 test cases failed: "fails on purpose"',
    );
    expect((await runJson<{ versions: unknown[] }>(['--db', db, 'versions', 'gated'])).versions).toEqual([]);

    await runJson(['--db', db, 'import', flowFile('gated_ok', { tests: [passing], testsGatePublish: true })]);
    const published = await runCli(['--db', db, 'publish', 'gated_ok']);
    expect(published.code).toBe(0);
    expect(published.stdout).toBe('test cases: 1 passed\npublished gated_ok version 1\n');

    await runJson(['--db', db, 'import', flowFile('gated_empty', { testsGatePublish: true })]);
    const empty = await runCli(['--db', db, 'publish', 'gated_empty']);
    expect(empty.stderr).toContain('[TESTS_FAILED]');
    expect(empty.stderr).toContain('it has none');
  });

  it('refuses test cases whose pattern or JSONPath cannot be checked, saving nothing', async () => {
    const badRegex = { ...passing, expectations: [{ kind: 'regex', pattern: '(unclosed' }] };
    const badPath = { ...passing, id: 'p', expectations: [{ kind: 'json_path', path: '$[?(@.a)]', equals: 1 }] };
    const result = await runCli(['--db', db, 'import', flowFile('broken', { tests: [badRegex, badPath] })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_TEST_CASE');
    expect(result.stderr).toContain(
      'test case "mentions otters": the pattern "(unclosed" is not a valid regular expression',
    );
    expect(result.stderr).toContain('uses a filter or script expression');
    expect((await runJson<{ flows: unknown[] }>(['--db', db, 'list'])).flows).toEqual([]);
  });

  it('keeps the test cases in the native export', async () => {
    await runJson(['--db', db, 'import', flowFile('kept', { tests: [passing], testsGatePublish: true })]);
    const exported = JSON.parse((await runCli(['--db', db, 'export', 'kept'])).stdout) as Record<string, unknown>;
    expect(exported.tests).toEqual([passing]);
    expect(exported.testsGatePublish).toBe(true);
  });
});

describe('flowbench test on a structured result', () => {
  it('checks a JSONPath value and a JSON Schema against what a client receives', async () => {
    // The triage example answers with structured content; its classify node asks for JSON.
    server.reply = (request) => ({
      content: JSON.stringify(request.body.messages ?? []).includes('Classify this ticket')
        ? JSON.stringify({ category: 'billing', urgency: 'normal', reason: 'charged twice' })
        : 'We are on it.',
    });
    const triage = JSON.parse(readFileSync(join(ROOT, 'resources/examples/triage-ticket.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const shape = { type: 'object', required: ['category', 'reply'], properties: { category: { enum: ['billing'] } } };
    const cases = [
      {
        id: 'billing',
        name: 'a billing ticket',
        inputs: { ticket: 'I was charged twice.' },
        expectations: [
          { kind: 'json_path', path: '$.category', equals: 'billing' },
          { kind: 'json_schema', schema: shape },
        ],
      },
      {
        id: 'strict',
        name: 'a schema it does not meet',
        inputs: { ticket: 'I was charged twice.' },
        expectations: [{ kind: 'json_schema', schema: { ...shape, required: ['refund'] } }],
      },
    ];
    const file = join(tempDir(), 'triage-tests.json');
    writeFileSync(file, JSON.stringify({ ...triage, tests: cases }));
    await runJson(['--db', db, 'import', file]);
    const result = await runCli(['--db', db, 'test', 'triage_ticket', '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as TestRunSummary;
    expect(summary.results.map((r) => [r.id, r.status])).toEqual([
      ['billing', 'passed'],
      ['strict', 'failed'],
    ]);
    expect(JSON.stringify(summary.results[1]?.failures)).toContain("must have required property 'refund'");
  });

  it('stops on SIGTERM: the cases running end cancelled, saying so, those not begun say they did not run, exit 143', async () => {
    await server.close();
    server = await startOpenAiServer(() => ({ content: 'slow', delayMs: 10_000 }));
    await setTestProvider(db, server.url, 'test-model', '--default');
    // One case more than run at once, so that one has not begun when the signal comes.
    const cases = Array.from({ length: TEST_CONCURRENCY + 1 }, (_, i) => ({
      ...passing,
      id: `c${i}`,
      name: `case ${i}`,
    }));
    await runJson(['--db', db, 'import', flowFile('stopped', { tests: cases })]);
    const child = spawn(process.execPath, [BIN, '--db', db, 'test', 'stopped'], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const deadline = Date.now() + 15_000;
    while (server.requests.length < TEST_CONCURRENCY && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(143);
    const why = 'cancelled: `flowbench test` was stopped (SIGTERM)';
    expect(stdout).toContain(`✗ case 0  failed`);
    expect(stdout).toContain(`    the run cancelled: CANCELLED: ${why}`);
    expect(stdout).toContain(`! case ${TEST_CONCURRENCY}  error`);
    expect(stdout).toContain(`    not run: ${why}`);
    const { runs } = await runJson<{ runs: { status: string; trigger: string }[] }>(['--db', db, 'runs']);
    expect(runs.map((r) => r.status)).toEqual(Array.from({ length: TEST_CONCURRENCY }, () => 'cancelled'));
  });
});
