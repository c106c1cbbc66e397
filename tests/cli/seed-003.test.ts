import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
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
});
