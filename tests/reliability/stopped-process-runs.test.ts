import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow, llmFlow } from '../fixtures/mcp-flows';
import {
  connectHttp,
  connectHttpV2,
  connectStdio,
  slowModelDatabase,
  spawnRawStdio,
  type RawStdio,
} from '../helpers/mcp';
import { startServe } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

interface RunRow {
  id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
}

/** The runs as a plain SQLite connection reads them. */
function storedRuns(db: string): RunRow[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare('SELECT id, status, error_code, error_message FROM runs').all() as RunRow[];
  } finally {
    sqlite.close();
  }
}

async function until<T>(read: () => T, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = read();
  }
  return value;
}

describe('runs of a Flowbench process that stopped', () => {
  it('are closed as interrupted within seconds by a serve still open, not left running for ever', async () => {
    const { db, model } = await slowModelDatabase(join(tempDir(), 'stopped.db'), 60_000, [echoFlow, llmFlow]);
    closers.push(() => model.close());
    const serve = await startServe(db);
    closers.push(() => serve.kill());

    // A desktop client's `flowbench mcp`, with a call waiting on the model, killed as a client quitting may.
    const stdio = await connectStdio(db, 'quitting-client');
    void stdio.client.callTool({ name: 'ask_model', arguments: { question: 'Why?' } }).catch(() => undefined);
    const [running] = await until(
      () => storedRuns(db),
      (rows) => rows.length === 1,
      10_000,
    );
    expect(running).toMatchObject({ status: 'running' });
    process.kill(stdio.pid, 'SIGKILL');

    const [closed] = await until(
      () => storedRuns(db),
      (rows) => rows[0]?.status !== 'running',
      10_000,
    );
    expect(closed).toMatchObject({
      id: running?.id,
      status: 'interrupted',
      error_code: 'RUN_INTERRUPTED',
      error_message: expect.stringContaining(`(pid ${stdio.pid}) stopped before the run ended`),
    });

    // What an MCP client asking for it gets, through serve.
    const client = await connectHttp(serve.mcpUrl, serve.token, 'asking-client');
    closers.push(() => client.close());
    const result = await client.callTool({ name: 'flows_result', arguments: { runId: running?.id, waitSeconds: 1 } });
    expect(result.structuredContent).toMatchObject({
      status: 'failed',
      error: { flowbenchCode: 'RUN_INTERRUPTED', message: expect.stringContaining('stopped before the run ended') },
    });
  });

  it('are cancelled, saying why, and stored when serve is stopped, which no longer waits for the model; MCP clients waiting are told why', async () => {
    const tested = { ...llmFlow, tests: [{ id: 'why', name: 'Why', inputs: { question: 'Why?' }, expectations: [] }] };
    const { db, model } = await slowModelDatabase(join(tempDir(), 'serve-stopped.db'), 60_000, [tested]);
    closers.push(() => model.close());
    const serve = await startServe(db);
    closers.push(() => serve.kill());
    // A run from the editor, and its test cases run from the Tests tab, through its API, waiting on the model.
    const session = new URL(serve.editorUrl).searchParams.get('session') ?? '';
    const call = (path: string, body: unknown) =>
      fetch(`${serve.url}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-flowbench-session': session },
        body: JSON.stringify(body),
      });
    await call('runs/start', { flowId: 'ask', inputs: { question: 'Why?' } });
    void call('tests/run', { flowId: 'ask' }).catch(() => undefined);
    // And MCP clients of both revisions over HTTP, each waiting on a call.
    const legacy = await connectHttp(serve.mcpUrl, serve.token, 'legacy-client');
    const modern = await connectHttpV2(serve.mcpUrl, serve.token, 'modern', 'modern-client');
    // Its listen stream stays open until the client goes: serve does not wait for it to end.
    await modern.listen({ toolsListChanged: true });
    closers.push(
      () => legacy.close(),
      () => modern.close(),
    );
    const answers = [legacy, modern].map((client) =>
      client.callTool({ name: 'ask_model', arguments: { question: 'Why?' } }).then(
        (result) => ({ at: performance.now(), result }),
        (error: unknown) => ({ at: performance.now(), result: String(error) }),
      ),
    );
    await until(
      () => model.requests.length,
      (count) => count === 4,
      10_000,
    );

    const stopping = performance.now();
    await serve.stop();
    // It waited for the model's answers (a minute here) before, and the runs' ends were lost; then for
    // the listen stream's end, 2 s.
    expect(performance.now() - stopping).toBeLessThan(1_500);
    const why = '`flowbench serve` was stopped while the run was going';
    const runs = storedRuns(db);
    expect(runs).toHaveLength(4);
    for (const run of runs) expect(run).toMatchObject({ status: 'cancelled', error_message: why });
    // The clients were answered before the connections closed; cut off, they waited out their 60 s limit.
    for (const { at, result } of await Promise.all(answers)) {
      expect(at - stopping).toBeLessThan(5_000);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining(why) }] });
    }
  });

  it('over stdio: a flows_start run goes on to its end when the client closes its input, and its result is there for the next connection', async () => {
    const { db, raw, runId } = await flowsStartOverStdio('stdio-closed.db', 2_000);
    const exited = new Promise((resolve) => raw.child.once('exit', resolve));
    raw.child.stdin.end();
    await exited;
    // The process ended once the run had (it left at once before, the run stored as running for ever).
    expect(storedRuns(db)).toEqual([{ id: runId, status: 'succeeded', error_code: null, error_message: null }]);
    const next = await connectStdio(db, 'next-session');
    closers.push(() => next.client.close());
    const result = await next.client.callTool({ name: 'flows_result', arguments: { runId } });
    expect(result.structuredContent).toMatchObject({ status: 'success', finalResult: 'Forty-two.' });
  });

  it('over stdio: SIGTERM (an MCP client closing) ends it at once, its runs cancelled, saying why, and stored', async () => {
    const { db, raw, runId } = await flowsStartOverStdio('stdio-stopped.db', 60_000);
    // And a tool call waiting on the model too.
    const answered = new Promise<unknown>((resolve) =>
      raw.onMessage((message) => {
        if ((message as { id?: number }).id === 3) resolve(message);
      }),
    );
    raw.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'ask_model', arguments: { question: 'And?' } },
    });
    await until(
      () => storedRuns(db).length,
      (count) => count === 2,
      10_000,
    );
    const stopping = performance.now();
    const exited = new Promise((resolve) => raw.child.once('exit', resolve));
    raw.child.kill('SIGTERM');
    await exited;
    // Clients wait about 2 s before killing it.
    expect(performance.now() - stopping).toBeLessThan(2_000);
    const runs = storedRuns(db);
    expect(runs.find((run) => run.id === runId)).toEqual({
      id: runId,
      status: 'cancelled',
      error_code: 'CANCELLED',
      error_message:
        '`flowbench mcp` was stopped (SIGTERM, as an MCP client stops it when it closes) while the run was going',
    });
    const why =
      '`flowbench mcp` was stopped (SIGTERM, as an MCP client stops it when it closes) while the run was going';
    expect(runs.find((run) => run.id !== runId)).toMatchObject({ status: 'cancelled', error_message: why });
    // A client still reading is told why.
    expect(await answered).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining(why) }] },
    });
  });
});

/**
 * A `flowbench mcp` over raw stdio, its model answering after `delayMs`, and
 * the ask flow started in it with flows_start (a 2025-11-25 session).
 */
async function flowsStartOverStdio(
  name: string,
  delayMs: number,
): Promise<{ db: string; raw: RawStdio; runId: string }> {
  const { db, model } = await slowModelDatabase(join(tempDir(), name), delayMs, [llmFlow]);
  closers.push(() => model.close());
  const raw = spawnRawStdio(db);
  closers.push(() => Promise.resolve(raw.close()));
  return { db, raw, runId: await flowsStart(raw) };
}

/** Opens a 2025-11-25 session over raw stdio and starts the ask flow with flows_start; its run id. */
async function flowsStart(raw: RawStdio): Promise<string> {
  const answer = (id: number) =>
    new Promise<{ result?: { structuredContent?: { runId: string } } }>((resolve) =>
      raw.onMessage((message) => {
        if ((message as { id?: number }).id === id) resolve(message as never);
      }),
    );
  raw.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await answer(1);
  raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  raw.send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'flows_start', arguments: { flowName: 'ask_model', initialVariables: { question: 'Why?' } } },
  });
  const runId = (await answer(2)).result?.structuredContent?.runId;
  expect(runId).toEqual(expect.any(String));
  return runId as string;
}
