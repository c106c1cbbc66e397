import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { connectStdio } from '../helpers/mcp';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let model: OpenAiServer;

beforeEach(async () => {
  model = await startOpenAiServer((request) => {
    const system = JSON.stringify(request.body.messages ?? []);
    // The labeler says spam: the workflow's stop checker ends the run (its agent step, whose tool no server offers here, never runs).
    return { content: system.includes('Label') ? '{"label": "spam"}' : 'A short summary.' };
  });
});
afterEach(() => model.close());

describe('seed 003: a workflow run in its summary and Markdown representations', () => {
  it('runs show --format summary and --format markdown give the run, each step with its input and output, and why it ended', async () => {
    const db = join(tempDir(), 'wf.db');
    await setTestProvider(db, model.url, 'test-model', '--default');
    const imported = await runJson<{ id: string }>([
      '--db',
      db,
      'import',
      'tests/fixtures/formats/workflow-summarize-label.json',
    ]);
    const ran = await runCli([
      '--db',
      db,
      'run',
      imported.id,
      '--input',
      'trigger_output=Buy cheap watches now',
      '--json',
    ]);
    const run = JSON.parse(ran.stdout) as RunRecord;
    expect(run.status).toBe('stopped');

    const summary = await runCli(['--db', db, 'runs', 'show', run.id, '--format', 'summary']);
    expect(summary.code).toBe(0);
    const lines = summary.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Summarize and label: stopped in \d+ ms \(\d+ steps\), STOPPED at Spam_check_stop$/);
    expect(lines).toContainEqual(expect.stringMatching(/^- Summarizer: succeeded, \d+ ms$/));

    const markdown = await runCli(['--db', db, 'runs', 'show', run.id, '--format', 'markdown']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('# Summarize and label');
    expect(markdown.stdout).toContain(`Run \`${run.id}\`, stopped`);
    expect(markdown.stdout).toContain('## Inputs\n\n```json\n{\n  "trigger_output": "Buy cheap watches now"\n}\n```');
    expect(markdown.stdout).toMatch(/## Summarizer: succeeded, \d+ ms\n\n\*\*Input\*\*/);
    expect(markdown.stdout).toContain('**Output**\n\n```\nA short summary.\n```');
    expect(markdown.stdout).toContain('**Error** `STOPPED` at `Spam_check_stop`');

    const bad = await runCli(['--db', db, 'runs', 'show', run.id, '--format', 'html']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of text, summary, markdown');
  });

  it('sends system_prompt as the system message, takes any JSON as trigger data, records steps never reached, reports filter_rules, and exports back', async () => {
    const db = join(tempDir(), 'wf-json.db');
    await setTestProvider(db, model.url, 'test-model', '--default');
    const source = JSON.parse(readFileSync('tests/fixtures/formats/workflow-summarize-label.json', 'utf8')) as {
      trigger: { filter_rules: Record<string, unknown> };
    };
    source.trigger.filter_rules = { channel: 'support' };
    const file = join(tempDir(), 'filtered.json');
    writeFileSync(file, JSON.stringify(source));
    const imported = await runJson<{ id: string; warnings: { message: string }[] }>(['--db', db, 'import', file]);
    expect(imported.warnings.map((w) => w.message)).toContainEqual(
      'trigger.filter_rules: the trigger\'s filter_rules ({"channel":"support"}) are not applied: every run Flowbench starts runs the workflow; they are kept for export',
    );
    const ran = await runCli([
      '--db',
      db,
      'run',
      imported.id,
      '--input',
      'trigger_output={"from": "a@b.c", "text": "Buy cheap watches"}',
      '--json',
    ]);
    const run = JSON.parse(ran.stdout) as RunRecord;
    expect(run.inputs).toEqual({ trigger_output: { from: 'a@b.c', text: 'Buy cheap watches' } });
    // The CustomLLM's system_prompt is the system message, its trigger data shown as JSON.
    expect(model.requests[0]?.body.messages).toEqual([
      {
        role: 'system',
        content: 'Summarize this message in two sentences: {"from":"a@b.c","text":"Buy cheap watches"}',
      },
    ]);
    // The stop checker ended the run: the step after it was never reached, and is recorded so.
    expect(run.status).toBe('stopped');
    expect(run.steps.find((s) => s.nodeId === 'Responder')?.status).toBe('skipped');
    // get_output_data: one step's whole output.
    const label = await runCli(['--db', db, 'runs', 'show', run.id, '--step', 'Labeler']);
    expect(label.stdout).toBe('{"label": "spam"}\n');
    const missing = await runCli(['--db', db, 'runs', 'show', run.id, '--step', 'Nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NODE_NOT_FOUND');
    // A pass that is no whole number from 1 is refused, worded as every number option.
    for (const pass of ['', '0', '1.5']) {
      const refused = await runCli(['--db', db, 'runs', 'show', run.id, '--step', 'Labeler', '--iteration', pass]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `flowbench: error [USAGE_ERROR]: --iteration takes a whole number from 1, got "${pass}"\n`,
      );
    }

    // Over MCP the trigger data is any JSON value too, and the run stops the same way.
    expect((await runCli(['--db', db, 'publish', imported.id])).code).toBe(0);
    const { client } = await connectStdio(db);
    try {
      const tools = await client.listTools();
      const tool = tools.tools.find((t) => t.name === 'Summarize_and_label');
      expect(tool?.inputSchema.properties).toMatchObject({
        trigger_output: { description: 'The text of an incoming message.' },
      });
      const called = await client.callTool({ name: 'Summarize_and_label', arguments: { trigger_output: ['a', 1] } });
      expect(called.isError).toBe(true);
      expect((called.content as { text: string }[])[0]?.text).toContain('stopped');
      expect(model.requests.at(-2)?.body.messages).toEqual([
        { role: 'system', content: 'Summarize this message in two sentences: ["a",1]' },
      ]);
    } finally {
      await client.close();
    }

    const exported = await runCli(['--db', db, 'export', imported.id, '--format', 'workflow']);
    expect(exported.code).toBe(0);
    // Field for field what was imported, the trigger's filter_rules included.
    expect(JSON.parse(exported.stdout)).toEqual(source);
  });

  it('a stop checker with several conditions stops the run when any of them holds', async () => {
    const db = join(tempDir(), 'wf-stop.db');
    await setTestProvider(db, model.url, 'test-model', '--default');
    const source = JSON.parse(readFileSync('tests/fixtures/formats/workflow-summarize-label.json', 'utf8')) as {
      steps: { stop_conditions?: Record<string, unknown>[] }[];
    };
    // The first condition does not hold (the label is spam, not ham); the second does.
    source.steps[2]!.stop_conditions = [
      { ...source.steps[2]!.stop_conditions![0], target_value: 'ham' },
      { ...source.steps[2]!.stop_conditions![0], operator: 'contains', target_value: 'spa' },
    ];
    const file = join(tempDir(), 'two-conditions.json');
    writeFileSync(file, JSON.stringify(source));
    const imported = await runJson<{ id: string }>(['--db', db, 'import', file]);
    const ran = await runCli(['--db', db, 'run', imported.id, '--input', 'trigger_output=Buy now', '--json']);
    const run = JSON.parse(ran.stdout) as RunRecord;
    expect(run.status).toBe('stopped');
    expect(run.error).toMatchObject({ code: 'STOPPED', nodeId: 'Spam_check_stop' });
  });
});
