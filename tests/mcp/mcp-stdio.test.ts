import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServices } from '../../core/services/open-services';
import { echoFlow, llmFlow, structuredFlow } from '../fixtures/mcp-flows';
import { BIN, ROOT, runCli } from '../helpers/cli';
import {
  connectStdio,
  prepareDatabase,
  publishFlows,
  spawnRawStdio,
  storedRuns,
  type RawMessage,
} from '../helpers/mcp';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let db: string;
let client: Client;
let server: OpenAiServer;

beforeEach(async () => {
  server = await startOpenAiServer(() => ({ content: 'Forty-two.' }));
  db = join(tempDir(), 'mcp.db');
  prepareDatabase(db, (services) => {
    services.providers.set(
      { name: 'test', kind: 'openai-compatible', baseUrl: server.url, defaultModel: 'test-model' },
      true,
    );
    publishFlows(services, [echoFlow, structuredFlow, llmFlow]);
    // A flow that exists but was never published is not a tool.
    services.flows.create({ ...echoFlow, id: 'draft-only', tool: { name: 'draft_only' } });
  });
  ({ client } = await connectStdio(db));
});
afterEach(async () => {
  await client.close();
  await server.close();
});

/**
 * Sends JSON-RPC lines to `flowbench mcp`, each request after the previous one
 * was answered (as a client does), and collects everything the server writes.
 */
function rawStdioExchange(path: string, requests: object[]): Promise<RawMessage[]> {
  const lastId = (requests.filter((r) => 'id' in r).at(-1) as { id: number }).id;
  const raw = spawnRawStdio(path);
  const queue = [...requests];
  const sendUntilRequest = () => {
    while (queue.length > 0) {
      const next = queue.shift() as { id?: number };
      raw.send(next);
      if (next.id !== undefined) return;
    }
  };
  return new Promise<RawMessage[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify(raw.messages)}`)), 20_000);
    raw.onMessage((message) => {
      if (message.id === lastId) {
        clearTimeout(timer);
        resolve(raw.messages);
      } else if (message.id !== undefined) sendUntilRequest();
    });
    sendUntilRequest();
  }).finally(() => raw.close());
}

/** The texts of a tool result's content. */
const textOf = (result: unknown) =>
  (result as { content: { type: string; text: string }[] }).content.map((c) => c.text);

describe('flowbench mcp (stdio)', () => {
  it('lists published, enabled flows as tools with schemas built from their parameters', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask_model',
      'echo_tool',
      'flows_execute',
      'flows_list',
      'flows_result',
      'flows_start',
      'measure_word',
    ]);
    const echo = tools.find((t) => t.name === 'echo_tool');
    expect(echo).toEqual({
      name: 'echo_tool',
      title: 'Echo',
      description:
        'Echoes the message back.\n\nWhen to use: When asked to echo.\n\nWhen not to use: Never for secrets.',
      // Clients that support tasks may call any flow as one. This client declares no MCP Apps support:
      // no view is named (views.test.ts has a client that does).
      execution: { taskSupport: 'optional' },
      inputSchema: {
        type: 'object',
        properties: {
          message: { type: 'string', description: 'what to echo' },
          count: { type: 'integer', default: 1 },
          mood: { type: 'string', enum: ['calm', 'loud'] },
        },
        required: ['message'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    });
    expect(tools.find((t) => t.name === 'measure_word')?.outputSchema).toEqual({
      type: 'object',
      properties: { original: { type: ['string', 'null'] }, shout: { type: ['string', 'null'] } },
    });
  });

  it('returns ordered return values as content and stores the run with trigger mcp and the client name', async () => {
    const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'hello', count: 3 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toEqual(['You said: hello', 'count=3']);
    const runs = await storedRuns(db, 1);
    expect(runs[0]).toMatchObject({ trigger: 'mcp', client: 'flowbench-tests', status: 'succeeded', flowVersion: 1 });
  });

  it('returns structuredContent with its JSON as text', async () => {
    const result = await client.callTool({ name: 'measure_word', arguments: { word: 'otter' } });
    expect(result.structuredContent).toEqual({ original: 'otter', shout: 'otter!' });
    expect(JSON.parse(textOf(result)[0]!)).toEqual({ original: 'otter', shout: 'otter!' });
  });

  it('runs model calls through the provider', async () => {
    const result = await client.callTool({ name: 'ask_model', arguments: { question: 'meaning of life?' } });
    expect(textOf(result)).toEqual(['Forty-two.']);
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'Answer: meaning of life?' }]);
  });

  it('reports a failed run as isError naming the node, the code and what finished', async () => {
    server.reply = () => ({ status: 400 });
    const result = await client.callTool({ name: 'ask_model', arguments: { question: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)[0]).toMatch(
      /^The flow "Ask" failed at node "answer": PROVIDER_ERROR: provider "test" answered 400: .*\. Finished before that: input\. Run id: [0-9a-f-]{36}\.$/,
    );
  });

  it('answers bad arguments with isError listing each bad field', async () => {
    const missing = await client.callTool({ name: 'echo_tool', arguments: {} });
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toEqual(['Invalid arguments for echo_tool: missing required input: message']);
    const wrong = await client.callTool({
      name: 'echo_tool',
      arguments: { message: 5, count: 'many', mood: 'angry', extra: true },
    });
    expect(textOf(wrong)[0]).toBe(
      'Invalid arguments for echo_tool: unknown input "extra" (parameters: message, count, mood); input "message": expected a string, got 5; input "count": expected an integer, got "many"; input "mood": expected one of "calm", "loud", got "angry"',
    );
  });

  it('treats an unknown tool and oversized arguments as protocol errors', async () => {
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
    await expect(client.callTool({ name: 'draft_only', arguments: {} })).rejects.toThrow(/Unknown tool: draft_only/);
    await expect(client.callTool({ name: 'echo_tool', arguments: { message: 'x'.repeat(1_100_000) } })).rejects.toThrow(
      /the limit is 1 MB/,
    );
  });

  it('sends a progress notification per finished node, before the result', async () => {
    // Read the raw stream: the SDK client drops progress that arrives in the same
    // chunk as the response (modelcontextprotocol/typescript-sdk#2580), which says
    // nothing about what the server sent.
    const messages = await rawStdioExchange(db, [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo_tool', arguments: { message: 'hi' }, _meta: { progressToken: 'p-1' } },
      },
    ]);
    const afterInit = messages.slice(messages.findIndex((m) => m.id === 1) + 1);
    expect(afterInit.map((m) => (m.method === 'notifications/progress' ? m.params : { id: m.id }))).toEqual([
      { progressToken: 'p-1', progress: 1, total: 3, message: 'input finished' },
      { progressToken: 'p-1', progress: 2, total: 3, message: 'say finished' },
      { progressToken: 'p-1', progress: 3, total: 3, message: 'result finished' },
      { id: 2 },
    ]);
  });

  it('cancels the run when the client cancels the request', async () => {
    server.reply = () => ({ content: 'late', delayMs: 10_000 });
    const controller = new AbortController();
    const call = client.callTool({ name: 'ask_model', arguments: { question: 'slow' } }, CallToolResultSchema, {
      signal: controller.signal,
    });
    const deadline = Date.now() + 10_000;
    while (server.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    const [run] = await storedRuns(db, 1);
    expect(run).toMatchObject({
      status: 'cancelled',
      trigger: 'mcp',
      error: { code: 'CANCELLED', message: expect.stringContaining('changed my mind') },
    });
    expect(server.requests[0]?.wasAborted).toBe(true);
  });

  it('serves the published version, not the draft being edited', async () => {
    const services = openServices(db);
    services.flows.applyChanges('echo', {
      updateNodes: [{ id: 'say', config: { template: 'DRAFT {{inputs.message}}' } }],
    });
    services.close();
    expect(textOf(await client.callTool({ name: 'echo_tool', arguments: { message: 'a' } }))[0]).toBe('You said: a');
  });

  it('tells connected clients within 2 s when another process publishes, disables or deletes a flow', async () => {
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    const waitForChange = async (before: number) => {
      const started = Date.now();
      while (changes === before && Date.now() - started < 2000) await new Promise((r) => setTimeout(r, 20));
      expect(changes, 'tools/list_changed within 2 s').toBeGreaterThan(before);
      return Date.now() - started;
    };
    expect((await runCli(['--db', db, 'publish', 'draft_only'])).code).toBe(0);
    await waitForChange(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('draft_only');

    expect((await runCli(['--db', db, 'disable', 'echo_tool'])).code).toBe(0);
    await waitForChange(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('echo_tool');
    await expect(client.callTool({ name: 'echo_tool', arguments: { message: 'x' } })).rejects.toThrow(
      /Unknown tool: echo_tool/,
    );

    expect((await runCli(['--db', db, 'enable', 'echo_tool'])).code).toBe(0);
    await waitForChange(2);
    expect((await runCli(['--db', db, 'delete', 'measure_word'])).code).toBe(0);
    await waitForChange(3);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'ask_model',
      'draft_only',
      'echo_tool',
      'flows_execute',
      'flows_list',
      'flows_result',
      'flows_start',
    ]);
  });

  it('handles 20 concurrent calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'echo_tool', arguments: { message: `m${i}` } })),
    );
    expect(results.map((r) => textOf(r)[0])).toEqual(Array.from({ length: 20 }, (_, i) => `You said: m${i}`));
    expect(await storedRuns(db, 20)).toHaveLength(20);
  });

  it('answers 2,000 calls sent at once to a client that reads slowly, saying nothing on stderr but that it serves', async () => {
    const raw = spawnRawStdio(db);
    let stderr = '';
    raw.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      raw.send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow reader', version: '1' } },
      });
      raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // The client reads nothing for a while: the pipe fills, and each answer waits for it to drain.
      raw.child.stdout.pause();
      const calls = Array.from({ length: 2000 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'echo_tool', arguments: { message: `m${i}` } },
      }));
      raw.sendLine(calls.map((call) => JSON.stringify(call)).join('\n'));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      raw.child.stdout.resume();
      const deadline = Date.now() + 30_000;
      while (raw.messages.filter((m) => typeof m.id === 'number' && m.id > 0).length < 2000 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const answers = raw.messages.filter((m) => typeof m.id === 'number' && m.id > 0);
      expect(answers).toHaveLength(2000);
      expect(answers.every((m) => textOf(m.result)[0] === `You said: m${(m.id as number) - 1}`)).toBe(true);
      // Node's "MaxListenersExceededWarning: Possible EventEmitter memory leak" went to the client's log.
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^flowbench mcp: serving \d+ flow tool/)]);
    } finally {
      raw.close();
    }
  });

  it('answers a call made while another process holds the write lock at once (its run is in the run journal) and stores the run when the lock is released', async () => {
    // A first call proves the database takes this server's writes; until then answers wait for commits.
    await client.callTool({ name: 'echo_tool', arguments: { message: 'first' } });
    await storedRuns(db, 1);
    const other = new Database(db);
    other.pragma('busy_timeout = 5000');
    other.exec('BEGIN IMMEDIATE');
    other.prepare("INSERT INTO settings (key, value) VALUES ('busy', '1')").run();
    const asked = Date.now();
    const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'patient' } });
    expect(textOf(result)[0]).toBe('You said: patient');
    expect(Date.now() - asked).toBeLessThan(1000);
    // Answered, not yet committed: the lock is still held, and a reader sees only the first run.
    const reader = new Database(db, { readonly: true });
    expect(reader.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(1);
    reader.close();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo_tool');
    other.exec('COMMIT');
    other.close();
    const runs = await storedRuns(db, 2);
    expect(runs).toEqual([
      expect.objectContaining({ status: 'succeeded', trigger: 'mcp' }),
      expect.objectContaining({ status: 'succeeded', trigger: 'mcp' }),
    ]);
    const services = openServices(db);
    expect(services.runs.get(runs[0]?.id as string).inputs).toMatchObject({ message: 'patient' });
    services.close();
  });

  it('refuses an argument a built-in tool does not take, naming it, instead of running without it', async () => {
    const before = openServices(db);
    const runsBefore = before.runs.count();
    before.close();
    // A misspelt initialVariables, and a version the schema calls ref: each would have run the newest version without them.
    const misspelt = await client.callTool({
      name: 'flows_execute',
      arguments: { flowName: 'echo_tool', initalVariables: { message: 'hey' } },
    });
    expect(misspelt).toMatchObject({
      isError: true,
      structuredContent: {
        status: 'failed',
        error: {
          code: 'VALIDATION_ERROR',
          message:
            'flows_execute takes no argument "initalVariables"; its arguments are flowName, initialVariables, ref',
        },
      },
    });
    const started = await client.callTool({
      name: 'flows_start',
      arguments: { flowName: 'echo_tool', initialVariables: { message: 'hey' }, version: 1 },
    });
    expect(started.structuredContent).toMatchObject({
      flowName: 'echo_tool',
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('flows_start takes no argument "version"'),
        source: 'flows_start',
      },
    });
    // Arguments named as another tool's: the failure says what was asked for, and "undefined" is no flow's name.
    const unnamed = await client.callTool({ name: 'flows_start', arguments: { flow: 'echo_tool' } });
    expect(unnamed.structuredContent).toMatchObject({
      flowName: '',
      error: { message: expect.stringContaining('flows_start takes no argument "flow"'), source: 'flows_start' },
    });
    const result = await client.callTool({ name: 'flows_result', arguments: { runId: 'x', timeout: 5 } });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          code: 'VALIDATION_ERROR',
          message: 'flows_result takes no argument "timeout"; its arguments are runId, waitSeconds',
        },
      },
    });
    const listed = await client.callTool({ name: 'flows_list', arguments: { verbose: true } });
    expect(listed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'flows_list takes no argument "verbose"; its arguments are includeMetadata' }],
    });
    const after = openServices(db);
    expect(after.runs.count()).toBe(runsBefore);
    after.close();
  });

  it('offers flows_list and flows_execute in the shapes of the FlowyPrompt tools', async () => {
    const list = await client.callTool({ name: 'flows_list', arguments: {} });
    const flows = (list.structuredContent as { flows: { name: string; version: string; nodeCount: number }[] }).flows;
    expect(flows.map((f) => f.name).sort()).toEqual(['ask_model', 'echo_tool', 'measure_word']);
    expect(flows.find((f) => f.name === 'echo_tool')).toMatchObject({ version: '1', nodeCount: 3, flowId: 'echo' });

    const executed = await client.callTool({
      name: 'flows_execute',
      arguments: { flowName: 'echo_tool', initialVariables: { message: 'hey' } },
    });
    expect(executed.isError).toBeFalsy();
    expect(executed.structuredContent).toMatchObject({
      flowId: 'echo',
      flowName: 'echo_tool',
      initialVariables: { message: 'hey', count: 1 },
      // Seed 001's shape: variables by their names, the result node not a step of its own.
      intermediateResults: [
        { nodeId: 'say', label: 'say', inputVariables: { message: 'hey' }, output: 'You said: hey' },
      ],
      finalResult: 'You said: hey\n\ncount=1',
      status: 'success',
    });

    const missing = await client.callTool({ name: 'flows_execute', arguments: { flowName: 'echo_tool' } });
    expect(missing).toMatchObject({
      isError: true,
      structuredContent: { status: 'failed', error: { code: 'MISSING_VARIABLES', source: 'flows_execute' } },
    });
    const unknown = await client.callTool({ name: 'flows_execute', arguments: { flowName: 'ghost' } });
    expect(unknown.structuredContent).toMatchObject({ status: 'failed', error: { code: 'FLOW_NOT_FOUND' } });

    server.reply = () => ({ status: 500 });
    const failed = await client.callTool({
      name: 'flows_execute',
      arguments: { flowName: 'ask_model', initialVariables: { question: 'q' } },
    });
    expect(failed.structuredContent).toMatchObject({
      status: 'failed',
      finalResult: null,
      error: { code: 'EXECUTION_ERROR', flowbenchCode: 'PROVIDER_ERROR', failedAt: { nodeId: 'answer' } },
    });
  });
  it('keeps stdout for JSON-RPC alone: what a library prints with console.log or console.info while it serves goes to stderr', async () => {
    // A module loaded before Flowbench that prints once Flowbench serves, as a chatty library would
    // (no spaces: NODE_OPTIONS splits at them).
    const chatty = "setTimeout(()=>{console.log('chatty-log');console.info('chatty-info')},1000)";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--db', db, 'mcp'],
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        FLOWBENCH_DB: '',
        NODE_OPTIONS: `--import=data:text/javascript,${chatty}`,
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const chattyClient = new Client({ name: 'chatty-test', version: '1.0.0' });
    const unreadable: Error[] = [];
    chattyClient.onerror = (error) => unreadable.push(error);
    await chattyClient.connect(transport);
    try {
      // Once from the main thread and once from the run writer's: NODE_OPTIONS loads it into both.
      await expect.poll(() => stderr.split('chatty-info').length - 1, { timeout: 10_000 }).toBe(2);
      expect(stderr.split('chatty-log').length - 1).toBe(2);
      const result = await chattyClient.callTool({ name: 'echo_tool', arguments: { message: 'still here' } });
      expect(textOf(result)[0]).toBe('You said: still here');
      expect(unreadable).toEqual([]);
    } finally {
      await chattyClient.close();
    }
  });
});
