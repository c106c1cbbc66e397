import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { everythingStdio } from '../helpers/mcp-servers';
import { buildFlow, input } from '../helpers/flow-builder';
import { startOpenAiServer, toolMessages, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const FIXTURES = 'tests/fixtures/formats';
const tempDir = useTempDir();
let model: OpenAiServer;
let db: string;

beforeEach(async () => {
  model = await startOpenAiServer();
  db = join(tempDir(), 'agents.db');
  await setTestProvider(db, model.url, 'test-model', '--default');
});
afterEach(() => model.close());

const addEverything = () => {
  const server = everythingStdio();
  return runCli(['--db', db, 'servers', 'add', server.name, '--', server.command, ...server.args]);
};

/** First request: the model calls echo; then it answers with what the tool said. */
const echoThenAnswer = () => {
  model.reply = (request, index) =>
    index === 0
      ? { toolCalls: [{ name: 'echo', arguments: { message: 'otters' } }] }
      : { content: `Agent answer: ${toolMessages(request)[0]?.content ?? 'no tool result'}` };
};

describe('flowbench servers', () => {
  it('adds a server with a secret kept masked, tests it (its tools listed), and says why one fails', async () => {
    const added = await addEverything();
    expect(added.code).toBe(0);
    const env = await runCli([
      '--db',
      db,
      'servers',
      'add',
      'secretive',
      '--env',
      'API_TOKEN=s3cret-value',
      '--',
      'node',
      '-e',
      '0',
    ]);
    expect(env.code).toBe(0);
    const listed = await runCli(['--db', db, 'servers', 'list', '--json']);
    expect(listed.stdout).toContain('API_TOKEN');
    expect(listed.stdout).not.toContain('s3cret-value');
    const tested = await runJson<{ status: { state: string; tools: { name: string }[] } }>([
      '--db',
      db,
      'servers',
      'test',
      'everything',
    ]);
    expect(tested.status.state).toBe('connected');
    expect(tested.status.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    const failing = await runCli(['--db', db, 'servers', 'test', 'secretive']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('failed: SERVER_UNAVAILABLE');
    expect(failing.stdout).toContain('exited before answering');
    const unknown = await runCli(['--db', db, 'servers', 'remove', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SERVER_NOT_FOUND');
    expect((await runCli(['--db', db, 'servers', 'add', 'x', '--url', 'ftp://example'])).stderr).toContain(
      'VALIDATION_ERROR',
    );
  });
});

/** A client's `mcp.json` in `folder` (made if missing), as the client writes it. */
function writeMcpJson(folder: string, config: unknown): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'mcp.json'), JSON.stringify(config));
}

describe('flowbench servers import', () => {
  it("adds the servers a client's config lists, says what it cannot take and where, and keeps what is here unless asked", async () => {
    // Cursor's config in a home of its own: the real server-everything, a server Flowbench cannot take, a setting it has no use for.
    const home = tempDir();
    const everything = everythingStdio();
    writeMcpJson(join(home, '.cursor'), {
      mcpServers: {
        everything: {
          command: everything.command,
          args: everything.args,
          env: { API_TOKEN: 's3cret' },
          autoApprove: ['echo'],
        },
        socket: { type: 'websocket', url: 'wss://example.com/mcp' },
      },
    });
    const env = { HOME: home };
    type Imported = {
      servers: { name: string; action: string }[];
      problems: { where: string; severity: string }[];
      written: boolean;
    };
    const importing = (...more: string[]) =>
      runCli(['--db', db, 'servers', 'import', '--from', 'cursor', ...more], env);

    const preview = await importing('--dry-run', '--json');
    // One entry could not be taken: the exit code says so.
    expect(preview.code).toBe(1);
    expect(JSON.parse(preview.stdout)).toEqual({
      servers: [expect.objectContaining({ name: 'everything', action: 'add' })],
      problems: [
        expect.objectContaining({ where: 'mcpServers.everything.autoApprove', severity: 'warning' }),
        expect.objectContaining({ where: 'mcpServers.socket', severity: 'error' }),
      ],
      written: false,
    } satisfies Imported);
    expect((await runJson<{ servers: unknown[] }>(['--db', db, 'servers', 'list'])).servers).toEqual([]);

    const imported = await importing();
    expect(imported.stdout).toContain('added everything (stdio: ');
    expect(imported.stdout).toContain(
      'error mcpServers.socket: has the transport "websocket", which Flowbench does not know',
    );
    // Stored as one added by hand: its secret masked, and it answers.
    const listed = await runCli(['--db', db, 'servers', 'list', '--json']);
    expect(listed.stdout).toContain('API_TOKEN');
    expect(listed.stdout).not.toContain('s3cret');
    const tested = await runJson<{ status: { state: string } }>(['--db', db, 'servers', 'test', 'everything']);
    expect(tested.status.state).toBe('connected');

    // Again: the server here stays as it is, unless --replace.
    const actions = async (...more: string[]) =>
      (JSON.parse((await importing('--json', ...more)).stdout) as Imported).servers.map((server) => server.action);
    expect(await actions()).toEqual(['keep']);
    expect(await actions('--replace')).toEqual(['replace']);
    // A client with no config here, and a file that is no config.
    const missing = await runCli(['--db', db, 'servers', 'import', '--from', 'claude'], env);
    expect(missing.stderr).toContain('FILE_NOT_FOUND');
    expect(missing.stderr).toContain('Claude Desktop has no config at');
    writeFileSync(join(home, 'notes.json'), '{ "theme": "dark" }');
    const notConfig = await runCli(['--db', db, 'servers', 'import', join(home, 'notes.json')]);
    expect(notConfig.code).toBe(1);
    expect(notConfig.stderr).toContain('has no MCP servers');
    expect((await runCli(['--db', db, 'servers', 'import'])).stderr).toContain('give a config file or --from <client>');
  });

  it("reads the config a client keeps in a project's folder (--project)", async () => {
    const project = tempDir();
    const everything = everythingStdio();
    writeMcpJson(join(project, '.vscode'), {
      servers: { everything: { type: 'stdio', command: everything.command, args: everything.args } },
    });
    const preview = await runCli([
      '--db',
      db,
      'servers',
      'import',
      '--from',
      'vscode',
      '--project',
      project,
      '--dry-run',
    ]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('would add everything (stdio: ');
    // A project Cursor has no config in, a client that keeps none per project, and --project alone.
    const missing = await runCli(['--db', db, 'servers', 'import', '--from', 'cursor', '--project', project]);
    expect(missing.stderr).toContain(`Cursor has no config for the project ${project} at`);
    const desktop = await runCli(['--db', db, 'servers', 'import', '--from', 'claude', '--project', project]);
    expect(desktop.stderr).toContain('Claude Desktop keeps no config per project');
    expect((await runCli(['--db', db, 'servers', 'import', '--project', project])).stderr).toContain(
      '--project goes with --from <client>',
    );
  });
});

describe('seed 004: a flow definition whose agent versions Flowbench does not know', () => {
  it('imports with one agent per version to review, runs at once against the local model, and publishes after review', async () => {
    const imported = await runJson<{ id: string; problems: unknown[]; warnings: { code: string }[] }>([
      '--db',
      db,
      'import',
      `${FIXTURES}/flow-definition-minimal.json`,
    ]);
    expect(imported.problems).toEqual([]);
    expect(imported.warnings.filter((w) => w.code === 'AGENT_NEEDS_REVIEW')).toHaveLength(4);
    // Memory, transitions and summary fields all run as the seed says: the agents to review are the only warnings.
    expect(imported.warnings.map((w) => w.code)).toEqual(Array(4).fill('AGENT_NEEDS_REVIEW'));
    // The steps answer JSON, so resultPayload's $steps.x.output.y paths find their values.
    model.reply = (request) => ({
      content: JSON.stringify({ draft: `draft ${model.requests.indexOf(request) + 1}`, recommendations: ['ship it'] }),
    });
    const run = await runJson<RunRecord>(['--db', db, 'run', imported.id, '--input', 'problemStatement=Slow checkout']);
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ kind: 'structured', data: { solution: 'draft 2', nextActions: ['ship it'] } });
    expect(run.steps.filter((s) => s.status === 'succeeded').map((s) => s.nodeId)).toEqual([
      'input',
      'gather_requirements',
      'generate_solution',
      'review_solution',
      'result',
    ]);
    // Seed 004: the step's prompt is its system prompt, and the launch parameters are its context.
    expect(model.requests[0]?.body.messages).toEqual([
      { role: 'system', content: 'Ты бизнес-аналитик. Собери контекст и требования.' },
      { role: 'user', content: 'problemStatement: Slow checkout\nconstraints: ' },
    ]);
    // Every step gets them; a step without a prompt has its agent's system prompt (none yet: only the context).
    expect(model.requests[2]?.body.messages).toEqual([
      { role: 'user', content: 'problemStatement: Slow checkout\nconstraints: ' },
    ]);
    expect(model.requests[0]?.body.model).toBe('test-model');

    // Reviewing an agent the import made: what the person sets is what the step's version runs.
    const reviewer = await runCli(['--db', db, 'agents', 'set', 'Ревью решения', '--system', 'You review solutions.']);
    expect(reviewer.code).toBe(0);
    const again = await runJson<RunRecord>([
      '--db',
      db,
      'run',
      imported.id,
      '--input',
      'problemStatement=Slow checkout',
    ]);
    expect(again.status).toBe('succeeded');
    expect(model.requests[5]?.body.messages).toEqual([
      { role: 'system', content: 'You review solutions.' },
      { role: 'user', content: 'problemStatement: Slow checkout\nconstraints: ' },
    ]);
    // Steps that answer text: the run names each mapping that cannot be made instead of returning nulls.
    model.reply = () => ({ content: 'Plain words, no JSON.' });
    const unmapped = await runCli(['--db', db, 'run', imported.id, '--input', 'problemStatement=x', '--json']);
    expect(unmapped.code).toBe(1);
    const failed = JSON.parse(unmapped.stdout) as RunRecord;
    expect(failed.error).toMatchObject({ code: 'OUTPUT_MAPPING_FAILED', nodeId: 'result' });
    expect(failed.error?.message).toContain('solution ({{nodes.generate_solution.output.draft}})');
    expect(failed.error?.message).toContain('"review_solution" answered text, not JSON');

    const refused = await runCli(['--db', db, 'publish', imported.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('AGENT_NOT_REVIEWED');
    for (const name of ['Сбор требований', 'Проектирование решения', 'Ревью решения', 'Прерывание']) {
      expect((await runCli(['--db', db, 'agents', 'review', name])).code).toBe(0);
    }
    const published = await runCli(['--db', db, 'publish', imported.id]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    // MCP clients see the version the definition declares.
    const { client } = await connectStdio(db);
    try {
      const list = await client.callTool({ name: 'flows_list', arguments: {} });
      expect((list.structuredContent as { flows: { name: string; version: string }[] }).flows).toEqual([
        expect.objectContaining({ name: 'solution-workshop', version: '4' }),
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('seed 003: a workflow with a CustomAgent step', () => {
  it('runs its enabled tools on the connected servers', async () => {
    expect((await addEverything()).code).toBe(0);
    const imported = await runJson<{ id: string }>(['--db', db, 'import', `${FIXTURES}/workflow-custom-agent.json`]);
    echoThenAnswer();
    const run = await runJson<RunRecord>([
      '--db',
      db,
      'run',
      imported.id,
      '--input',
      'trigger_output=Where do otters sleep?',
    ]);
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: 'Agent answer: Echo: otters' }] });
    const offered = (model.requests[0]?.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered.sort()).toEqual(['echo', 'get-sum']);
    expect(run.steps.find((s) => s.nodeId === 'Researcher')?.toolCalls?.[0]).toMatchObject({
      server: 'everything',
      tool: 'echo',
      result: 'Echo: otters',
    });
  });
});

describe('an agent flow published as a Flowbench tool', () => {
  it('is called by the SDK client over stdio and returns the agent’s answer; the run keeps the tool calls', async () => {
    expect((await addEverything()).code).toBe(0);
    prepareDatabase(db, (services) =>
      publishFlows(services, [
        buildFlow({
          id: 'otter-agent',
          parameters: [{ name: 'question', type: 'string' }],
          nodes: [
            input(),
            {
              id: 'agent',
              type: 'agent',
              config: { prompt: '{{inputs.question}}', tools: [{ server: 'everything', tool: 'echo' }] },
            },
            {
              id: 'result',
              type: 'output',
              config: { returnValues: [{ id: 'answer', text: '{{nodes.agent.output}}' }] },
            },
          ],
          edges: ['input>agent', 'agent>result'],
        }),
      ]),
    );
    echoThenAnswer();
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({ name: 'otter-agent', arguments: { question: 'otters?' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'Agent answer: Echo: otters' }]);
    } finally {
      await client.close();
    }
    const runs = await runJson<{ runs: { id: string; trigger: string }[] }>(['--db', db, 'runs']);
    const stored = await runJson<RunRecord>(['--db', db, 'runs', 'show', runs.runs[0]?.id as string]);
    expect(stored.trigger).toBe('mcp');
    expect(stored.steps.find((s) => s.nodeId === 'agent')?.toolCalls).toHaveLength(1);
  });
});

describe("a tool call whose arguments do not fit the tool's input schema", () => {
  it('is refused before it reaches the server, naming the field (the CLI as built, not only the sources)', async () => {
    expect((await addEverything()).code).toBe(0);
    prepareDatabase(db, (services) =>
      services.flows.create(
        buildFlow({
          id: 'typed-agent',
          nodes: [
            input(),
            { id: 'agent', type: 'agent', config: { prompt: 'go', tools: [{ server: 'everything', tool: 'echo' }] } },
            {
              id: 'result',
              type: 'output',
              config: { returnValues: [{ id: 'answer', text: '{{nodes.agent.output}}' }] },
            },
          ],
          edges: ['input>agent', 'agent>result'],
        }),
      ),
    );
    // echo's message must be a string; the model sends a number.
    model.reply = () => ({ toolCalls: [{ name: 'echo', arguments: { message: 42 } }] });
    const result = await runCli(['--db', db, 'run', 'typed-agent', '--json']);
    expect(result.code).toBe(1);
    const run = JSON.parse(result.stdout) as RunRecord;
    const refusal = 'arguments of everything/echo do not match its input schema: /message must be string';
    expect(run.error).toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID', message: refusal, nodeId: 'agent' });
    // The call is on the step with why it was refused; echo never answered it.
    const call = run.steps.find((s) => s.nodeId === 'agent')?.toolCalls?.[0];
    expect(call).toMatchObject({ tool: 'echo', arguments: { message: 42 }, error: { code: 'TOOL_ARGUMENTS_INVALID' } });
    expect(call?.result).toBeUndefined();
  });
});
