import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { confirmFlow, llmFlow } from '../fixtures/mcp-flows';
import { BIN, ROOT } from '../helpers/cli';
import { buildFlow, input, llm } from '../helpers/flow-builder';
import { LEGACY_OPENING, prepareDatabase, publishFlows, slowModelDatabase } from '../helpers/mcp';
import type { OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

/**
 * A client that writes its requests to `flowbench mcp` and closes stdin, as a
 * script piping into it does (and as the MCP specification's stdio shutdown
 * begins): the calls it made are answered before the server exits. A real
 * process, spoken to in raw lines; the model a local OpenAI-compatible server.
 */
const tempDir = useTempDir();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

type Reply = { id?: unknown; result?: { content?: { text?: string }[]; tools?: unknown[] }; error?: unknown };

async function database(delayMs: number): Promise<{ db: string; model: OpenAiServer }> {
  const made = await slowModelDatabase(join(tempDir(), 'stdin.db'), delayMs, [llmFlow]);
  closers.push(() => made.model.close());
  return made;
}

/** Writes `messages` to a new `flowbench mcp`, closes its stdin, and collects what it answered until it exits. */
function pipeInto(db: string, messages: unknown[]): Promise<{ code: number | null; replies: Reply[]; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, '--db', db, 'mcp'], {
    cwd: ROOT,
    env: { ...process.env, FLOWBENCH_DB: '' },
  });
  closers.push(() => Promise.resolve(child.kill('SIGKILL')));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        replies: out
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Reply),
        ms: performance.now() - started,
      }),
    ),
  );
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'script', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const askCall = (id: number, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'ask_model', arguments: { question: 'life?' }, ...(meta ? { _meta: meta } : {}) },
});

const storedRuns = (db: string) => {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare('SELECT status, output FROM runs').all() as { status: string; output: string }[];
  } finally {
    sqlite.close();
  }
};

describe('flowbench mcp when the client closes stdin', () => {
  it.each([
    ['2025-11-25 (initialize)', [...LEGACY_OPENING, askCall(2), { jsonrpc: '2.0', id: 3, method: 'tools/list' }]],
    [
      '2026-07-28 (no initialize)',
      [askCall(2, modernMeta), { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta } }],
    ],
  ])('answers the calls still running before it exits: %s', async (_, messages) => {
    // The answer comes 800 ms after stdin closed: before, the server left at once, the call unanswered.
    const { db, model } = await database(800);
    const { code, replies, ms } = await pipeInto(db, messages);
    expect(code).toBe(0);
    expect(replies.find((r) => r.id === 2)).toMatchObject({ result: { content: [{ text: 'Forty-two.' }] } });
    expect(replies.find((r) => r.id === 3)).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(ms).toBeGreaterThan(800);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.wasAborted).toBe(false);
    expect(storedRuns(db)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });

  it('does not wait for a call the client cancelled before closing stdin', async () => {
    const { db } = await database(20_000);
    const { code, replies, ms } = await pipeInto(db, [
      ...LEGACY_OPENING,
      askCall(2),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'changed my mind' } },
    ]);
    expect(code).toBe(0);
    // A cancelled request gets no answer (MCP), and the server went well before the model's 20 s.
    expect(replies.map((r) => r.id)).toEqual([1]);
    expect(ms).toBeLessThan(15_000);
  });

  it('a flows_start run goes on to its end after stdin closes, and the server exits once it is stored', async () => {
    const { db } = await database(800);
    const { code, replies, ms } = await pipeInto(db, [
      ...LEGACY_OPENING,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'flows_start', arguments: { flowName: 'ask_model', initialVariables: { question: 'life?' } } },
      },
    ]);
    expect(code).toBe(0);
    expect(replies.find((r) => r.id === 2)).toMatchObject({ result: { content: expect.any(Array) } });
    expect(ms).toBeGreaterThan(800);
    expect(storedRuns(db)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });

  it('a client that dies (stdin and stdout closed) leaves its flows_start run to end and be stored; the server then exits', async () => {
    // Two model calls of 600 ms one after the other, started in the background.
    const twoCalls = {
      ...buildFlow({
        id: 'two',
        parameters: [{ name: 'question', type: 'string' }],
        nodes: [
          input(),
          llm('a', 'A {{inputs.question}}'),
          llm('b', 'B {{nodes.a.output}}'),
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.b.output}}' }] } },
        ],
        edges: ['input>a', 'a>b', 'b>result'],
      }),
      tool: { name: 'two_calls' },
    };
    const made = await slowModelDatabase(join(tempDir(), 'gone.db'), 600, [llmFlow, twoCalls]);
    closers.push(() => made.model.close());
    const child = spawn(process.execPath, [BIN, '--db', made.db, 'mcp'], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '' },
    });
    closers.push(() => Promise.resolve(child.kill('SIGKILL')));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdin.write(
      [
        ...LEGACY_OPENING,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'flows_start', arguments: { flowName: 'two_calls', initialVariables: { question: 'q' } } },
        },
        askCall(3),
      ]
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    await started;
    // The client dies: its ends of both pipes close. The answer to its call then meets a closed pipe (EPIPE),
    // where the server used to exit at once, the flows_start run killed mid-way and left "running".
    child.stdout.destroy();
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toContain('flowbench mcp: the client stopped reading (its end of stdout closed): closing');
    const runs = new Database(made.db, { readonly: true });
    try {
      const rows = runs.prepare('SELECT flow_id, status, error_message FROM runs').all() as {
        flow_id: string;
        status: string;
        error_message: string | null;
      }[];
      expect(rows.find((r) => r.flow_id === 'two')?.status).toBe('succeeded');
      // The call whose answer had nowhere to go ended one way or the other, never left running;
      // cancelled, its run says why.
      const ask = rows.find((r) => r.flow_id === 'ask');
      expect(['succeeded', 'cancelled']).toContain(ask?.status);
      if (ask?.status === 'cancelled')
        expect(ask.error_message).toBe("the run was cancelled: the client's connection closed before the answer");
    } finally {
      runs.close();
    }
  });

  it("a task's question nobody can answer any more fails its run, naming the node, and the server exits", async () => {
    const db = join(tempDir(), 'ask-task.db');
    prepareDatabase(db, (services) => publishFlows(services, [confirmFlow]));
    const { code, replies } = await pipeInto(db, [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } },
          clientInfo: { name: 'script', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'confirm_flow', arguments: {}, task: { ttl: 60_000 } },
      },
    ]);
    // It waited for the answer for ever before (the question queued for a tasks/result that cannot come).
    expect(code).toBe(0);
    expect(replies.find((r) => r.id === 2)).toMatchObject({ result: { task: expect.any(Object) } });
    expect(storedRuns(db)).toEqual([expect.objectContaining({ status: 'failed' })]);
    const sqlite = new Database(db, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT error_code, error_message FROM runs').get()).toEqual({
        error_code: 'HUMAN_INPUT_UNAVAILABLE',
        error_message: expect.stringContaining('node "confirm"'),
      });
    } finally {
      sqlite.close();
    }
  });
});
