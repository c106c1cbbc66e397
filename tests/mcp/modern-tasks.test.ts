import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmFlow, echoFlow, llmFlow, waitingFlow } from '../fixtures/mcp-flows';
import { publishFlows, sendModern } from '../helpers/mcp';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useServedDatabase } from '../helpers/serve';

/**
 * Tasks for 2026-07-28 clients (the Tasks extension): no SDK client speaks
 * it without a hand-written raw dispatch, so this test sends its wire
 * messages itself, with the per-request envelope and standard headers, to a
 * real `flowbench serve`.
 */
let model: OpenAiServer;
beforeAll(async () => {
  model = await startOpenAiServer(() => ({ content: 'Forty-two.', delayMs: 8_000 }));
});
afterAll(() => model.close());
const { serve } = useServedDatabase('tasks', (services) => {
  services.providers.set(
    { name: 'test', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'test-model' },
    true,
  );
  publishFlows(services, [echoFlow, llmFlow, confirmFlow, waitingFlow]);
});

/** What these tests read of a reply: a result (a tool result, a task, discovery) or an error. */
interface WireResult {
  resultType?: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  inputRequests?: unknown;
  result?: { content: { type: string; text: string }[] };
  content: { type: string; text: string }[];
  capabilities: { extensions?: Record<string, unknown> };
  tools: { name: string; description?: string }[];
}
interface Reply {
  result: WireResult;
  error?: { code: number; message: string };
}

/** One 2026-07-28 request from a client that declares the Tasks extension and elicitation. */
async function send(method: string, params: Record<string, unknown>): Promise<{ ms: number; body: Reply }> {
  const started = performance.now();
  const body = await sendModern<Reply>(serve().mcpUrl, serve().token, method, params, {
    elicitation: { form: {} },
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  });
  return { ms: performance.now() - started, body };
}

async function pollUntil(
  taskId: string,
  done: (task: WireResult) => boolean,
): Promise<{ task: WireResult; longestMs: number }> {
  let longestMs = 0;
  for (let i = 0; i < 60; i++) {
    const { ms, body } = await send('tasks/get', { taskId });
    longestMs = Math.max(longestMs, ms);
    if (done(body.result)) return { task: body.result, longestMs };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`task ${taskId} never got there`);
}

describe('tasks for 2026-07-28 clients', () => {
  it('a quick flow answers as usual; the server says it offers tasks', async () => {
    const discover = await send('server/discover', {});
    expect(discover.body.result.capabilities.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    const call = await send('tools/call', { name: 'echo_tool', arguments: { message: 'hi' } });
    expect(call.body.result.resultType).toBe('complete');
    expect(call.body.result.content[0]?.text).toBe('You said: hi');
  });

  it('a call still running after 5 s becomes a task: polled with progress, then its result, no request open long', async () => {
    const call = await send('tools/call', { name: 'ask_model', arguments: { question: 'Why?' } });
    expect(call.ms).toBeLessThan(7_000);
    expect(call.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 86_400_000 });
    const { taskId } = call.body.result;
    const working = await send('tasks/get', { taskId });
    expect(working.body.result).toMatchObject({ taskId, status: 'working', statusMessage: '1 of 3 nodes done' });
    const { task, longestMs } = await pollUntil(taskId, (t) => t.status !== 'working');
    expect(longestMs).toBeLessThan(2_000);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Forty-two.' }] } });
  });

  it('an ask node makes the task input_required; tasks/update answers it and the run goes on', async () => {
    const call = await send('tools/call', { name: 'confirm_flow', arguments: {} });
    expect(call.body.result).toMatchObject({ resultType: 'task', status: 'input_required' });
    const { taskId } = call.body.result;
    const waiting = await send('tasks/get', { taskId });
    expect(waiting.body.result.inputRequests).toEqual({
      'ask-1': {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Go on?',
          requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] },
        },
      },
    });
    const wrongKey = await send('tasks/update', {
      taskId,
      inputResponses: { nope: { action: 'accept', content: {} } },
    });
    expect(wrongKey.body.error?.message).toMatch(/do not answer its question "ask-1"/);
    const update = await send('tasks/update', {
      taskId,
      inputResponses: { 'ask-1': { action: 'accept', content: { go: true } } },
    });
    expect(update.body.error).toBeUndefined();
    const { task } = await pollUntil(taskId, (t) => t.status === 'completed');
    expect(task.result?.content).toEqual([{ type: 'text', text: 'go=true' }]);
  });

  it('a flow that waits longer than clients do says so before it ever ran, and its call is a task at once', async () => {
    const { tools } = (await send('tools/list', {})).body.result;
    expect(tools.find((tool) => tool.name === 'waiting_flow')?.description).toMatch(
      /This flow takes at least 45 s \(it waits that long\): call it as a task, or through flows_start and flows_result/,
    );
    expect(tools.find((tool) => tool.name === 'echo_tool')?.description).not.toMatch(/takes at least/);
    const call = await send('tools/call', { name: 'waiting_flow', arguments: {} });
    // Not after the 5 s a call of a flow not known to be long is given first.
    expect(call.ms).toBeLessThan(2_000);
    expect(call.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = call.body.result;
    await send('tasks/cancel', { taskId });
    expect((await send('tasks/get', { taskId })).body.result.status).toBe('cancelled');
  });

  it('tasks/cancel cancels the run; an unknown task id is a clear error', async () => {
    const call = await send('tools/call', { name: 'confirm_flow', arguments: {} });
    const { taskId } = call.body.result;
    await send('tasks/cancel', { taskId });
    expect((await send('tasks/get', { taskId })).body.result.status).toBe('cancelled');
    const unknown = await send('tasks/get', { taskId: 'no-such-task' });
    expect(unknown.body.error).toMatchObject({ code: -32602 });
    expect(unknown.body.error?.message).toMatch(/no task has the id "no-such-task"/);
  });
});
