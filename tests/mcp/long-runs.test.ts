import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow, llmFlow } from '../fixtures/mcp-flows';
import { connectHttp, connectStdio, slowModelDatabase } from '../helpers/mcp';
import type { OpenAiServer } from '../helpers/openai-server';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';
import { holdWriteLock } from '../helpers/write-lock';

/**
 * Issue 19, point 2: flows longer than a client waits for one call. flows_start
 * answers at once, the run goes on without the client, and flows_result waits
 * a bounded time per call. Real `flowbench serve` and `flowbench mcp`
 * processes, the MCP SDK's client, and a local OpenAI-compatible server made slow.
 */
const tempDir = useTempDir();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Structured {
  runId: string;
  status: string;
  finalResult?: string;
  progress?: { done: number; total: number };
  error?: { code: string; message: string };
}
const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as Structured;

async function database(delayMs: number): Promise<{ db: string; model: OpenAiServer }> {
  const made = await slowModelDatabase(join(tempDir(), 'long.db'), delayMs, [echoFlow, llmFlow]);
  closers.push(() => made.model.close());
  return made;
}

/**
 * Stops `serve`, which waits for its runs on shutdown; killed when a test that
 * failed early left its 90-second run going, so that the hook does not time
 * out and the first failure is the one reported.
 */
function stopOrKill(serve: ServeProcess): () => Promise<unknown> {
  return () =>
    Promise.race([serve.stop(), new Promise((resolve) => setTimeout(resolve, 10_000)).then(() => serve.kill())]);
}

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

describe('long-running flows over MCP', () => {
  it('a 90-second model call completes through a task, and through flows_start and flows_result, no request open over 30 s, the client gone in between', async () => {
    const { db } = await database(90_000);
    const serve: ServeProcess = await startServe(db);
    closers.push(stopOrKill(serve));

    const first = await connectHttp(serve.mcpUrl, serve.token, 'long-run-client');
    const started = await timed(() =>
      first.callTool({
        name: 'flows_start',
        arguments: { flowName: 'ask_model', initialVariables: { question: 'Why?' } },
      }),
    );
    expect(started.ms).toBeLessThan(5_000);
    const { runId, status } = structured(started.value);
    expect(status).toBe('running');
    expect(started.value.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: `flowbench://runs/${runId}` }),
    );
    // The client goes away; the run does not.
    await first.close();

    // The same flow at the same time as a task (MCP 2025-11-25), for clients that support tasks.
    const tasker = await connectHttp(serve.mcpUrl, serve.token, 'task-client');
    closers.push(() => tasker.close());
    const created = await timed(() =>
      tasker.request(
        {
          method: 'tools/call',
          params: { name: 'ask_model', arguments: { question: 'Why?' }, task: { ttl: 600_000 } },
        },
        CreateTaskResultSchema,
      ),
    );
    expect(created.ms).toBeLessThan(5_000);
    const { taskId } = created.value.task;
    const pollTask = (async () => {
      const asked: number[] = [];
      for (;;) {
        const got = await timed(() => tasker.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema));
        asked.push(got.ms);
        if (got.value.status !== 'working') return { status: got.value.status, asked };
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    })();

    const second = await connectHttp(serve.mcpUrl, serve.token, 'long-run-client');
    closers.push(() => second.close());
    const waits: number[] = [];
    let answer: Structured | undefined;
    for (let call = 0; call < 8; call++) {
      const polled = await timed(() =>
        second.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 25 } }, undefined, {
          timeout: 40_000,
        }),
      );
      waits.push(polled.ms);
      answer = structured(polled.value);
      if (answer.status !== 'running') break;
      expect(answer.progress).toMatchObject({ total: 3 });
    }
    expect(Math.max(...waits)).toBeLessThan(30_000);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(80_000);
    expect(answer).toMatchObject({ status: 'success', finalResult: 'Forty-two.', runId });

    // The link in the result reads as the stored run.
    const resource = await second.readResource({ uri: `flowbench://runs/${runId}` });
    const record = JSON.parse(String((resource.contents[0] as { text: string }).text)) as {
      status: string;
      client: string;
      steps: { nodeId: string; status: string }[];
    };
    expect(record).toMatchObject({ status: 'succeeded', client: 'long-run-client' });
    expect(record.steps.map((s) => s.nodeId)).toEqual(['input', 'answer', 'result']);

    const task = await pollTask;
    expect(task.status).toBe('completed');
    expect(Math.max(...task.asked)).toBeLessThan(30_000);
    const taskResult = await tasker.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
    expect(taskResult.content).toEqual([{ type: 'text', text: 'Forty-two.' }]);

    // Learnt from its history: the flow now says it is long, and how to call it.
    const { client: fresh } = await connectStdio(db);
    closers.push(() => fresh.close());
    const ask = (await fresh.listTools()).tools.find((t) => t.name === 'ask_model');
    expect(ask?.description).toMatch(
      /usually takes about 9\d s: call it as a task, or through flows_start and flows_result/,
    );
  }, 180_000);

  it('a task answers only the session that made it, and cancelling it cancels its run', async () => {
    const { db } = await database(20_000);
    const serve: ServeProcess = await startServe(db);
    closers.push(stopOrKill(serve));
    const owner = await connectHttp(serve.mcpUrl, serve.token, 'owner');
    const other = await connectHttp(serve.mcpUrl, serve.token, 'other');
    closers.push(
      () => owner.close(),
      () => other.close(),
    );
    const { task } = await owner.request(
      { method: 'tools/call', params: { name: 'ask_model', arguments: { question: 'Q' }, task: {} } },
      CreateTaskResultSchema,
    );
    await expect(
      other.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema),
    ).rejects.toThrow(/Task not found/);
    await expect(
      owner.request({ method: 'tasks/get', params: { taskId: 'no-such-task' } }, GetTaskResultSchema),
    ).rejects.toThrow(/Task not found/);
    await expect(
      owner.request(
        { method: 'tools/call', params: { name: 'ask_model', arguments: {}, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/Invalid arguments for ask_model/);

    const cancelled = await owner.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      CancelTaskResultSchema,
    );
    expect(cancelled.status).toBe('cancelled');
    // The run behind it ends cancelled, well before the model would have answered.
    const runStatus = () => {
      const raw = new Database(db, { readonly: true });
      try {
        return (raw.prepare("SELECT status FROM runs WHERE trigger = 'mcp'").get() as { status: string } | undefined)
          ?.status;
      } finally {
        raw.close();
      }
    };
    await expect.poll(runStatus, { timeout: 10_000 }).toBe('cancelled');
  }, 60_000);

  it('answers a run still going with its progress, and refuses what it cannot give, each with a clear error', async () => {
    const { db } = await database(3_000);
    const { client } = await connectStdio(db);
    closers.push(() => client.close());

    // The client's trace context rides along in _meta and is kept on the run (issue 19, point 4).
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const { runId } = structured(
      await client.callTool({
        name: 'flows_start',
        arguments: { flowName: 'ask_model', initialVariables: { question: 'Q' } },
        _meta: { traceparent },
      }),
    );
    const running = structured(await client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 0 } }));
    expect(running).toMatchObject({ status: 'running', progress: { total: 3 } });

    const refusals = await Promise.all([
      client.callTool({ name: 'flows_result', arguments: { runId: 'no-such-run' } }),
      client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 99 } }),
      client.callTool({ name: 'flows_start', arguments: { flowName: 'no_such_flow' } }),
    ]);
    expect(refusals.map((r) => (structured(r).error as { flowbenchCode?: string }).flowbenchCode)).toEqual([
      'RUN_NOT_FOUND',
      'VALIDATION_ERROR',
      'FLOW_NOT_FOUND',
    ]);
    expect(
      refusals.map(
        (r) =>
          (structured(r).error as { code?: string; flowbenchCode?: string }).flowbenchCode ?? structured(r).error?.code,
      ),
    ).toEqual(['RUN_NOT_FOUND', 'VALIDATION_ERROR', 'FLOW_NOT_FOUND']);
    await expect(client.readResource({ uri: 'flowbench://runs/no-such-run' })).rejects.toThrow(/Resource not found/);

    const done = structured(await client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 10 } }));
    expect(done).toMatchObject({ status: 'success', finalResult: 'Forty-two.' });

    // A day and more later, the result is no longer given; the run record stays.
    const raw = new Database(db);
    raw
      .prepare('UPDATE runs SET started_at = started_at - ?, finished_at = finished_at - ? WHERE id = ?')
      .run(2 * 86_400_000, 2 * 86_400_000, runId);
    raw.close();
    const expired = await client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 0 } });
    expect(expired.isError).toBe(true);
    expect(structured(expired).error).toMatchObject({ code: 'RESULT_EXPIRED' });
    const kept = await client.readResource({ uri: `flowbench://runs/${runId}` });
    expect(JSON.parse(String((kept.contents[0] as { text: string }).text))).toMatchObject({ traceparent });
    // One that is not a W3C traceparent is not kept.
    const other = structured(
      await client.callTool({
        name: 'flows_start',
        arguments: { flowName: 'echo_tool', initialVariables: { message: 'hi' } },
        _meta: { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' },
      }),
    );
    const otherRun = await client.readResource({ uri: `flowbench://runs/${other.runId}` });
    expect(JSON.parse(String((otherRun.contents[0] as { text: string }).text))).not.toHaveProperty('traceparent');
  }, 60_000);

  it('says a run whose records are still being written is not written yet, not unknown or failed, then gives its result', async () => {
    const { db } = await database(0);
    const { client } = await connectStdio(db);
    closers.push(() => client.close());
    // A first run stored: from then on the server answers once a run's records are in its journal.
    const first = structured(
      await client.callTool({
        name: 'flows_start',
        arguments: { flowName: 'echo_tool', initialVariables: { message: 'a' } },
      }),
    );
    expect(
      structured(await client.callTool({ name: 'flows_result', arguments: { runId: first.runId } })),
    ).toMatchObject({
      status: 'success',
    });
    // Another process holds the write lock: the next run's records wait in the server's writer.
    const releaseLock = holdWriteLock(db);
    let runId = '';
    try {
      ({ runId } = structured(
        await client.callTool({
          name: 'flows_start',
          arguments: { flowName: 'echo_tool', initialVariables: { message: 'hi' } },
        }),
      ));
      const waiting = await client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 0 } });
      expect(waiting.isError).toBe(true);
      expect(structured(waiting)).toMatchObject({
        runId,
        status: 'unknown',
        error: { flowbenchCode: 'DATABASE_BUSY', message: expect.stringContaining('still being written; try again') },
      });
      await expect(client.readResource({ uri: `flowbench://runs/${runId}` })).rejects.toThrow(/still being written/);
    } finally {
      releaseLock();
    }
    const done = structured(await client.callTool({ name: 'flows_result', arguments: { runId, waitSeconds: 10 } }));
    expect(done).toMatchObject({ runId, status: 'success' });
  }, 60_000);
});
