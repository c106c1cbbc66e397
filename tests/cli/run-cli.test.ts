import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { BIN, ROOT, runCli, runJson, setTestProvider } from '../helpers/cli';
import { closedPort, startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let server: OpenAiServer;
let db: string;

beforeEach(async () => {
  server = await startOpenAiServer((request) => {
    const prompt = JSON.stringify(request.body.messages?.at(-1)?.content ?? '');
    return { content: prompt.startsWith('"Write a title') ? 'Otters, Briefly' : 'Otters hold hands while they sleep.' };
  });
  db = join(tempDir(), 'run.db');
  await setTestProvider(db, server.url, 'test-model', '--default');
  await runJson(['--db', db, 'import', 'resources/examples/summarise-then-title.json']);
});
afterEach(() => server.close());

describe('flowbench run', () => {
  it('runs an example against the provider and stores the exact prompts', async () => {
    const result = await runCli([
      '--db',
      db,
      'run',
      'summarise_then_title',
      '--input',
      'text=Sea otters sleep holding hands.',
      '--input',
      'sentences=2',
    ]);
    expect(result.stderr).toContain('✓ summarise');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Otters, Briefly\n\nOtters hold hands while they sleep.\n');

    const { runs } = await runJson<{ runs: { id: string; status: string; trigger: string }[] }>(['--db', db, 'runs']);
    expect(runs).toEqual([expect.objectContaining({ status: 'succeeded', trigger: 'cli' })]);
    const record = await runJson<RunRecord>(['--db', db, 'runs', 'show', runs[0]!.id]);
    const summarise = record.steps.find((s) => s.nodeId === 'summarise');
    const sent = server.requests[0]?.body.messages;
    expect(sent).toEqual([
      { role: 'system', content: 'You write faithful, plain summaries. Never add facts.' },
      {
        role: 'user',
        content: 'Summarise the following text in at most 2 sentences.\n\nSea otters sleep holding hands.',
      },
    ]);
    expect(summarise?.messages?.slice(0, 2)).toEqual(sent);
    expect(summarise).toMatchObject({ status: 'succeeded', attempts: 1, usage: { inputTokens: 10, outputTokens: 5 } });
    expect(record.inputs).toEqual({ text: 'Sea otters sleep holding hands.', sentences: 2 });
    expect(record.steps.map((s) => s.nodeId)).toEqual(['input', 'summarise', 'title', 'result']);
  });

  it('prints the whole run record with --json, inputs from a file', async () => {
    const inputs = join(tempDir(), 'inputs.json');
    writeFileSync(inputs, JSON.stringify({ text: 'Otters.', sentences: 1 }));
    const record = await runJson<RunRecord>(['--db', db, 'run', 'summarise_then_title', '--inputs', inputs]);
    expect(record).toMatchObject({ status: 'succeeded', trigger: 'cli', output: { kind: 'return_values' } });
    expect(record.steps).toHaveLength(4);
    expect(record.steps.every((s) => typeof s.durationMs === 'number')).toBe(true);
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('lists each missing input and each mistyped one', async () => {
    const missing = await runCli(['--db', db, 'run', 'summarise_then_title']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('flowbench: error [MISSING_VARIABLES]: missing required input: text\n');
    const wrong = await runCli([
      '--db',
      db,
      'run',
      'summarise_then_title',
      '--input',
      'text=x',
      '--input',
      'sentences=many',
      '--input',
      'extra=1',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("[VALIDATION_ERROR]: 2 inputs do not fit the flow's parameters");
    expect(wrong.stderr).toContain('input "sentences": expected an integer, got "many"');
    expect(wrong.stderr).toContain('unknown input "extra" (parameters: text, sentences)');
    expect((await runJson<{ runs: unknown[] }>(['--db', db, 'runs'])).runs).toEqual([]);
  });

  it('records a failed run when the provider is unreachable, naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    await setTestProvider(db, url, 'm');
    const result = await runCli(['--db', db, 'run', 'summarise_then_title', '--input', 'text=x', '--json']);
    expect(result.code).toBe(1);
    const record = JSON.parse(result.stdout) as RunRecord;
    // Only the input node had finished: nothing of the flow's own work was done, so `failed`.
    expect(record).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_UNAVAILABLE', nodeId: 'summarise' } });
    expect(record.error?.message).toContain(`at ${url}`);
    expect(record.steps.find((s) => s.nodeId === 'summarise')).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_UNAVAILABLE' },
    });
  });

  it('refuses an invalid flow with its problems before running', async () => {
    const flow = join(tempDir(), 'broken.json');
    writeFileSync(
      flow,
      JSON.stringify({
        schemaVersion: 1,
        id: 'broken',
        name: 'Broken',
        tool: { name: 'broken' },
        nodes: [{ id: 't', type: 'template', config: { template: '{{inputs.nope}}' } }],
      }),
    );
    // A draft with an unresolved reference can be stored through the editor; here it is forced in by SQL.
    const imported = await runCli(['--db', db, 'import', flow]);
    expect(imported.code).toBe(1);
    expect((await runCli(['--db', db, 'run', 'nothing'])).stderr).toContain('FLOW_NOT_FOUND');
  });

  it('ends a run past --timeout as RUN_TIMEOUT, and refuses a timeout no timer can hold rather than ending the run at once', async () => {
    server.reply = () => ({ content: 'slow', delayMs: 10_000 });
    const started = performance.now();
    const timedOut = await runCli(['--db', db, 'run', 'summarise_then_title', '--input', 'text=x', '--timeout', '0.5']);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('failed: [RUN_TIMEOUT] the run took longer than 500 ms');
    // 35 days: past a timer's 2^31 - 1 ms, such a timer went off at once and the run failed at its start.
    for (const seconds of ['3000000', '0.0001', 'soon']) {
      const refused = await runCli([
        '--db',
        db,
        'run',
        'summarise_then_title',
        '--input',
        'text=x',
        '--timeout',
        seconds,
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `--timeout takes a number of seconds from 0.001 to 2147483.647 (about 24 days), got "${seconds}"`,
      );
    }
    const { runs } = await runJson<{ runs: unknown[] }>(['--db', db, 'runs']);
    expect(runs).toHaveLength(1);
  });

  it('cancels on Ctrl-C and records the run as cancelled', async () => {
    server.reply = () => ({ content: 'slow', delayMs: 10_000 });
    const child = spawn(process.execPath, [BIN, '--db', db, 'run', 'summarise_then_title', '--input', 'text=x'], {
      cwd: ROOT,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 15_000;
    while (server.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('cancelled');
    const { runs } = await runJson<{ runs: { id: string; status: string }[] }>(['--db', db, 'runs']);
    expect(runs[0]?.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests[0]?.wasAborted).toBe(true);
  });

  it("cancels on SIGTERM (a script's timeout, a process manager) and records the run as cancelled, saying so", async () => {
    server.reply = () => ({ content: 'slow', delayMs: 10_000 });
    const child = spawn(process.execPath, [BIN, '--db', db, 'run', 'summarise_then_title', '--input', 'text=y'], {
      cwd: ROOT,
    });
    const asked = server.requests.length;
    const deadline = Date.now() + 15_000;
    while (server.requests.length === asked && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(143);
    const { runs } = await runJson<{ runs: { id: string; status: string }[] }>(['--db', db, 'runs']);
    expect(runs[0]?.status).toBe('cancelled');
    const shown = await runJson<{ error: { code: string; message: string } }>([
      '--db',
      db,
      'runs',
      'show',
      runs[0]?.id ?? '',
    ]);
    expect(shown.error).toEqual({ code: 'CANCELLED', message: 'cancelled: `flowbench run` was stopped (SIGTERM)' });
  });
});

describe('flowbench providers', () => {
  it('lists presets and tests a provider', async () => {
    const { providers } = await runJson<{ providers: { name: string; isDefault: boolean; apiKey: string }[] }>([
      '--db',
      db,
      'providers',
      'list',
    ]);
    expect(providers.map((p) => p.name)).toEqual(['ollama', 'lmstudio', 'openai', 'anthropic', 'test']);
    expect(providers.find((p) => p.isDefault)?.name).toBe('test');
    expect(await runJson(['--db', db, 'providers', 'test', 'test'])).toEqual({
      url: server.url,
      models: ['test-model', 'other-model'],
    });
    const port = await closedPort();
    await runJson([
      '--db',
      db,
      'providers',
      'set',
      'down',
      '--kind',
      'openai-compatible',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
    ]);
    const down = await runCli(['--db', db, 'providers', 'test', 'down']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      `[PROVIDER_UNAVAILABLE]: cannot reach provider "down" at http://127.0.0.1:${port}/v1`,
    );
    // A web app's address (Open WebUI, say) answers …/models with its page: said as that, not INTERNAL_ERROR.
    const web = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'),
    );
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    try {
      const site = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      await runJson(['--db', db, 'providers', 'set', 'site', '--kind', 'openai-compatible', '--base-url', site]);
      const page = await runCli(['--db', db, 'providers', 'test', 'site']);
      expect(page.code).toBe(1);
      expect(page.stderr).toContain(
        `[PROVIDER_ERROR]: provider "site" answered ${site}/models with a web page (text/html) instead of a list of models: is ${site} its API's address (an OpenAI-compatible server's usually ends in /v1)?`,
      );
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
    const bad = await runCli(['--db', db, 'providers', 'set', 'x', '--kind', 'openai-compatible']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('needs --base-url');
    expect((await runCli(['--db', db, 'providers', 'set', 'x', '--kind', 'banana'])).code).toBe(2);
  });
});

describe('a first run with no provider set up', () => {
  it('fails with NO_PROVIDER saying what to do, not a connection error to a provider nobody chose', async () => {
    const fresh = join(tempDir(), 'fresh.db');
    await runJson(['--db', fresh, 'import', 'resources/examples/summarise-then-title.json']);
    const result = await runCli(['--db', fresh, 'run', 'summarise_then_title', '--input', 'text=Otters.', '--json']);
    expect(result.code).toBe(1);
    const record = JSON.parse(result.stdout) as RunRecord;
    expect(record.status).toBe('failed');
    expect(record.error).toMatchObject({ code: 'NO_PROVIDER', nodeId: 'summarise' });
    expect(record.error?.message).toContain('no model provider is set up yet: add one on the Providers screen');
    expect(record.error?.message).not.toContain('ollama');
    const { providers } = await runJson<{ providers: { isDefault: boolean }[] }>(['--db', fresh, 'providers', 'list']);
    expect(providers.some((p) => p.isDefault)).toBe(false);

    // One added but not made the default: the message names it and how to choose it…
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const add = ['providers', 'set', 'local', '--kind', 'openai-compatible', '--base-url', url, '--default-model', 'm'];
    // A URL no request can go to is refused, and nothing is stored.
    const ftp = await runCli([
      '--db',
      fresh,
      'providers',
      'set',
      'local',
      '--kind',
      'openai-compatible',
      '--base-url',
      'ftp://127.0.0.1/v1',
    ]);
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toContain('[VALIDATION_ERROR]: baseUrl: an http:// or https:// URL');
    expect((await runCli(['--db', fresh, ...add])).code).toBe(0);
    // The list tells the presets from the one added (the editor's notice names only that one).
    const listed = await runJson<{ providers: { name: string; isPreset: boolean }[] }>([
      '--db',
      fresh,
      'providers',
      'list',
    ]);
    expect(listed.providers.filter((p) => !p.isPreset).map((p) => p.name)).toEqual(['local']);
    expect(listed.providers.filter((p) => p.isPreset).map((p) => p.name)).toEqual([
      'ollama',
      'lmstudio',
      'openai',
      'anthropic',
    ]);
    const unchosen = JSON.parse(
      (await runCli(['--db', fresh, 'run', 'summarise_then_title', '--input', 'text=Otters.', '--json'])).stdout,
    ) as RunRecord;
    expect(unchosen.error).toMatchObject({
      code: 'NO_PROVIDER',
      message:
        'no provider is the default yet (yours: local): make one the default on the Providers screen (or `flowbench providers default <name>`), or name a provider in the node',
    });
    // …and once chosen, nodes that name none use it (here it is down: the run says so).
    expect(await runJson(['--db', fresh, 'providers', 'default', 'local'])).toEqual({ name: 'local' });
    const chosen = JSON.parse(
      (await runCli(['--db', fresh, 'run', 'summarise_then_title', '--input', 'text=Otters.', '--json'])).stdout,
    ) as RunRecord;
    expect(chosen.error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining(url) });
    const missing = await runCli(['--db', fresh, 'providers', 'default', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('PROVIDER_NOT_FOUND');
    const unnamed = await runCli(['--db', fresh, 'providers', 'default', '']);
    expect(unnamed.code).toBe(2); // a usage error
    expect(unnamed.stderr).toContain('name the provider to make the default');
  });
});

describe('flowbench run with an ask node', () => {
  it('fails naming the node when there is no terminal to ask in', async () => {
    const file = join(tempDir(), 'ask.json');
    writeFileSync(
      file,
      JSON.stringify({
        schemaVersion: 1,
        id: 'ask-cli',
        name: 'Ask CLI',
        tool: { name: 'ask_cli' },
        nodes: [
          { id: 'input', type: 'input', position: { x: 0, y: 0 } },
          { id: 'confirm', type: 'ask', position: { x: 200, y: 0 }, config: { message: 'Sure?' } },
          { id: 'result', type: 'output', position: { x: 400, y: 0 } },
        ],
        edges: [
          { id: 'e1', source: 'input', target: 'confirm' },
          { id: 'e2', source: 'confirm', target: 'result' },
        ],
      }),
    );
    expect((await runCli(['--db', db, 'import', file])).code).toBe(0);
    // The test's stdin is a pipe, not a terminal.
    const result = await runCli(['--db', db, 'run', 'ask_cli']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'HUMAN_INPUT_UNAVAILABLE: node "confirm" asks a person for input, and `flowbench run` has no terminal to ask in',
    );
  });
});

describe('flowbench run with a JSON answer and its schema', () => {
  // The triage example's classify node asks for JSON matching a schema (its urgency one of low, normal, high).
  const triage = async (classification: Record<string, unknown>) => {
    await server.close();
    server = await startOpenAiServer((request) => ({
      content: JSON.stringify(request.body.messages ?? []).includes('Classify this ticket')
        ? JSON.stringify(classification)
        : 'We are on it.',
    }));
    await setTestProvider(db, server.url, 'test-model', '--default');
    await runJson(['--db', db, 'import', 'resources/examples/triage-ticket.json']);
    const result = await runCli([
      '--db',
      db,
      'run',
      'triage_ticket',
      '--input',
      'ticket=I was charged twice.',
      '--json',
    ]);
    return JSON.parse(result.stdout) as RunRecord;
  };

  it('goes on with an answer that matches the schema', async () => {
    const run = await triage({ category: 'billing', urgency: 'normal', reason: 'charged twice' });
    expect(run.status).toBe('succeeded');
    expect(run.steps.find((step) => step.nodeId === 'classify')?.output).toEqual({
      category: 'billing',
      urgency: 'normal',
      reason: 'charged twice',
    });
  });

  it('fails the node with what does not match, naming the field', async () => {
    const run = await triage({ category: 'billing', urgency: 'whenever', reason: 'charged twice' });
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('INVALID_MODEL_OUTPUT');
    expect(run.error?.message).toContain(
      "the model's JSON does not match the schema: /urgency must be equal to one of the allowed values",
    );
  });
});
