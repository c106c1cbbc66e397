import { getEventListeners } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Services } from '../../core/services/open-services';
import { buildFlow, input } from '../helpers/flow-builder';
import { fixtureStdio } from '../helpers/mcp-servers';
import { toolMessages } from '../helpers/openai-server';
import { useToolServices } from '../helpers/tool-services';

const tools = useToolServices();
const open = tools.open;

const agentFlow = (config: Record<string, unknown>) =>
  buildFlow({
    parameters: [{ name: 'question', type: 'string' }],
    nodes: [
      input(),
      { id: 'agent', type: 'agent', config: { prompt: '{{inputs.question}}', ...config } },
      { id: 'result', type: 'output', config: { returnValues: [{ id: 'answer', text: '{{nodes.agent.output}}' }] } },
    ],
    edges: ['input>agent', 'agent>result'],
  });

async function runAgent(s: Services, config: Record<string, unknown>) {
  const flow = s.flows.create(agentFlow(config));
  return s.runner.run({ flow, inputs: { question: 'Say hello through echo' }, trigger: 'cli' });
}

describe('agent node with tools of server-everything (stdio)', () => {
  it('calls echo as the model asks, gives the result back, and answers; every call is in the stored step', async () => {
    const s = open((request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'echo', arguments: { message: 'hello from the agent' } }] }
        : { content: `The tool said: ${toolMessages(request)[0]?.content ?? 'nothing'}` },
    );
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'echo' }] });
    expect(run.status).toBe('succeeded');
    expect(run.output).toEqual({
      kind: 'return_values',
      values: [{ id: 'answer', text: 'The tool said: Echo: hello from the agent' }],
    });
    // The model was offered echo with its schema, and got the tool's answer in the second request.
    const offered = tools.model().requests[0]?.body.tools as { function: { name: string; parameters: unknown } }[];
    expect(offered.map((t) => t.function.name)).toEqual(['echo']);
    expect(offered[0]?.function.parameters).toMatchObject({ properties: { message: { type: 'string' } } });
    expect(toolMessages(tools.model().requests[1]!)[0]?.content).toBe('Echo: hello from the agent');
    const stored = s.runs.get(run.id).steps.find((step) => step.nodeId === 'agent');
    expect(stored?.toolCalls).toEqual([
      expect.objectContaining({
        server: 'everything',
        tool: 'echo',
        arguments: { message: 'hello from the agent' },
        result: 'Echo: hello from the agent',
      }),
    ]);
    expect(stored?.toolCalls?.[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(stored?.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('finds a tool by name on any connected server when the server is left empty, and adds with get-sum', async () => {
    const s = open((request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 40 } }] }
        : { content: toolMessages(request)[0]?.content ?? '' },
    );
    const run = await runAgent(s, { tools: [{ server: '', tool: 'get-sum' }] });
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: expect.stringContaining('42') }] });
  });

  it('fails the step with STEP_LIMIT when the model keeps calling tools', async () => {
    const s = open(() => ({ toolCalls: [{ name: 'echo', arguments: { message: 'again' } }] }));
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'echo' }], maxSteps: 3 });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'STEP_LIMIT', nodeId: 'agent' });
    expect(tools.model().requests).toHaveLength(3);
    expect(s.runs.get(run.id).steps.find((x) => x.nodeId === 'agent')?.error?.code).toBe('STEP_LIMIT');
  });

  it.each([
    ['answered whole', false],
    ['streamed, as the editor runs it', true],
  ])(
    "shows the model the picture a tool answers with, as the user's image after the tool's text, and records its type and size (%s)",
    async (_, streamTokens) => {
      const s = open((request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'get-tiny-image', arguments: {}, id: 'call_logo' }] }
          : index === 1
            ? { toolCalls: [{ name: 'echo', arguments: { message: 'seen' }, id: 'call_echo' }] }
            : { content: 'A logo.' },
      );
      const flow = s.flows.create(
        agentFlow({
          tools: [
            { server: 'everything', tool: 'get-tiny-image' },
            { server: 'everything', tool: 'echo' },
          ],
        }),
      );
      const run = await s.runner.run({ flow, inputs: { question: 'What is it?' }, trigger: 'cli', streamTokens });
      expect(run.status).toBe('succeeded');
      const second = tools.model().requests[1]!;
      expect(second.body.stream === true).toBe(streamTokens);
      // The tool's text, the picture's place marked, as OpenAI's chat API takes a tool's answer…
      expect(toolMessages(second)).toEqual([
        {
          toolCallId: 'call_logo',
          content: "Here's the image you requested:\n[image 1]\nThe image above is the MCP logo.",
        },
      ]);
      // …then the picture itself, as the user's, in the message right after the tool's answer.
      const sent = second.body.messages ?? [];
      const after = sent[sent.findIndex((m) => m.role === 'tool') + 1];
      expect(after).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'The image get-tiny-image answered with (call call_logo):' },
          {
            type: 'image_url',
            image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/]+=*$/) },
          },
        ],
      });
      // The step records that message as text naming the picture; the tool call keeps the picture.
      const stored = s.runs.get(run.id).steps.find((step) => step.nodeId === 'agent');
      expect(stored?.messages?.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(stored?.messages?.[3]?.content).toMatch(
        /^The image get-tiny-image answered with \(call call_logo\):\n\[image 1: image\/png, \d+ bytes, sent as an image\]$/,
      );
      expect(stored?.toolCalls?.[0]?.result).toMatch(/\ndata:image\/png;base64,iVBORw0KGgo/);
      // A later turn has the picture once, where it was answered, and the next tool's answer after it.
      const third = tools.model().requests[2]?.body.messages ?? [];
      expect(third.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'tool']);
      expect(third[3]).toEqual(after);
    },
  );

  it('fails with TOOL_NOT_FOUND when the model names a tool the agent does not have', async () => {
    const s = open(() => ({ toolCalls: [{ name: 'delete_everything', arguments: {} }] }));
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'echo' }] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect(run.error?.message).toContain('delete_everything');
  });

  it('fails with TOOL_ARGUMENTS_INVALID when the arguments break the tool schema, before calling it', async () => {
    const s = open(() => ({ toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 3 } }] }));
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'get-sum' }] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID' });
    expect(run.error?.message).toContain('/a must be number');
  });

  it('with tell_model, gives a failed call back to the model, which answers anyway', async () => {
    const s = open((request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 3 } }] }
        : { content: `sorry: ${toolMessages(request)[0]?.content.slice(0, 40) ?? ''}` },
    );
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'get-sum' }], toolErrors: 'tell_model' });
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: expect.stringContaining('sorry') }] });
    const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'agent');
    expect(step?.toolCalls?.[0]?.error?.code).toBe('TOOL_ARGUMENTS_INVALID');
  });

  it('a configured tool the server does not offer is TOOL_NOT_FOUND naming what it has', async () => {
    const s = open(() => ({ content: 'never asked' }));
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'no_such_tool' }] });
    expect(run.error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect(run.error?.message).toContain('echo');
    expect(tools.model().requests).toHaveLength(0);
  });
});

describe('servers that misbehave', () => {
  it('a server that does not start is SERVER_UNAVAILABLE with its stderr, and the server shows the error', async () => {
    const s = open(() => ({ content: 'never asked' }));
    s.servers.set({
      name: 'broken',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'console.error("cannot open config file"); process.exit(3)'],
    });
    const run = await runAgent(s, { tools: [{ server: 'broken', tool: 'echo' }] });
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('SERVER_UNAVAILABLE');
    expect(run.error?.message).toContain('cannot open config file');
    const listed = s.servers.list().find((x) => x.config.name === 'broken');
    expect(listed?.status).toMatchObject({ state: 'failed', lastError: { code: 'SERVER_UNAVAILABLE' } });
  });

  it.each([
    [
      'a command that is not there',
      { command: 'flowbench-no-such-command' },
      'the command "flowbench-no-such-command" was not found',
    ],
    [
      'a working folder that is not there',
      { command: process.execPath, cwd: '/no/such/folder' },
      'its working folder /no/such/folder does not exist',
    ],
  ])('a server with %s says which, not only "spawn … ENOENT"', async (_, settings, said) => {
    const s = open(() => ({ content: 'never asked' }));
    s.servers.set({ name: 'absent', transport: 'stdio', args: ['-e', ''], ...settings });
    const tested = await s.servers.test('absent');
    expect(tested.status.lastError?.code).toBe('SERVER_UNAVAILABLE');
    expect(tested.status.lastError?.message).toContain(`did not start: ${said} (spawn `);
  });

  it('a server listing a tool MCP does not allow says which entry and what, not zod issues as JSON', async () => {
    const s = open(() => ({ content: 'never asked' }));
    s.servers.set(fixtureStdio('invalid', 'invalid-tools-server.mjs'));
    const tested = await s.servers.test('invalid');
    expect(tested.status.lastError?.code).toBe('SERVER_UNAVAILABLE');
    expect(tested.status.lastError?.message).toMatch(
      /^MCP server "invalid" \(`.+invalid-tools-server\.mjs`\) lists tools MCP does not allow, so none of them can be used \(its author can fix it\): tools\.1\.inputSchema\.type: Invalid input: expected "object"$/,
    );
  });

  it('a whole command line given as the command says how it goes in two parts', async () => {
    const s = open(() => ({ content: 'never asked' }));
    s.servers.set({ name: 'whole', transport: 'stdio', command: 'npx -y @modelcontextprotocol/server-everything' });
    const tested = await s.servers.test('whole');
    expect(tested.status.lastError?.message).toContain(
      'a command and its arguments are given apart: "npx" as the command, "-y", "@modelcontextprotocol/server-everything" as its arguments',
    );
  });

  it('a server that hangs is SERVER_UNAVAILABLE after its connect time limit', async () => {
    const s = open(() => ({ content: 'never asked' }));
    s.servers.set({
      name: 'hangs',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      connectTimeoutMs: 500,
    });
    const started = Date.now();
    const run = await runAgent(s, { tools: [{ server: 'hangs', tool: 'echo' }] });
    expect(run.error?.code).toBe('SERVER_UNAVAILABLE');
    expect(run.error?.message).toContain('did not answer within 500 ms');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('connections over time', () => {
  it('keeps a server’s tool list fresh when it says the list changed', async () => {
    const s = open(() => ({ content: 'unused' }));
    s.servers.set(fixtureStdio('changing', 'changing-server.mjs'));
    const tested = await s.servers.test('changing');
    expect(tested.status.tools?.map((t) => t.name)).toEqual(['unlock']);
    const result = await s.servers.connections.callTool(
      'changing',
      'unlock',
      {},
      { signal: new AbortController().signal },
    );
    expect(result.text).toBe('unlocked');
    await expect
      .poll(() => s.servers.list()[1]?.status.tools?.map((t) => t.name), { timeout: 5000 })
      .toEqual(['unlock', 'secret']);
  });

  it('a tool answering with more than the 10 MB a stdio message may be is said so, and the next call connects again', async () => {
    const s = open(() => ({ content: 'unused' }));
    s.servers.set(fixtureStdio('oversized', 'misbehaving-server.mjs'));
    const call = (tool: string) =>
      s.servers.connections.callTool('oversized', tool, {}, { signal: new AbortController().signal });
    // Before, this said the server had closed while dump ran: the SDK's reader closed it.
    await expect(call('dump')).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message:
        'oversized/dump answered with a message over 10 MB, more than Flowbench reads from a server over stdio: the connection was closed, and the next call opens it again',
    });
    expect(s.servers.list().find((x) => x.config.name === 'oversized')?.status).toMatchObject({
      state: 'failed',
      lastError: { code: 'TOOL_ERROR', message: expect.stringContaining('sent a message over 10 MB') },
    });
    expect((await call('ok')).text).toBe('ok');
  });

  it('a tool call over its time limit fails the step with TOOL_TIMEOUT', async () => {
    const s = open((_, index) =>
      index === 0
        ? { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 2 } }] }
        : { content: 'too late' },
    );
    const started = Date.now();
    const run = await runAgent(s, {
      tools: [{ server: 'everything', tool: 'trigger-long-running-operation' }],
      toolTimeoutMs: 400,
    });
    expect(run.error).toMatchObject({ code: 'TOOL_TIMEOUT', nodeId: 'agent' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('cancelling the run stops the loop and the tool call in flight', async () => {
    const s = open((_, index) =>
      index === 0
        ? { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 20, steps: 2 } }] }
        : { content: 'never' },
    );
    const flow = s.flows.create(
      agentFlow({ tools: [{ server: 'everything', tool: 'trigger-long-running-operation' }] }),
    );
    const calls: string[] = [];
    const started = Date.now();
    const { runId } = await s.runner.start({
      flow,
      inputs: { question: 'wait' },
      trigger: 'editor',
      listeners: [(event) => event.type === 'node.tool' && calls.push(event.call.tool)],
    });
    await expect.poll(() => calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    s.runner.cancel(runId, 'the person pressed Cancel');
    await expect.poll(() => s.runs.get(runId).status, { timeout: 5000 }).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(tools.model().requests).toHaveLength(1);
  });
});

describe('many calls on one signal', () => {
  it('leaves no abort listener on the caller’s signal after each call (an agent’s calls share one)', async () => {
    const s = open(() => ({ content: 'unused' }));
    const signal = new AbortController().signal;
    for (let i = 0; i < 15; i++) {
      await s.servers.connections.callTool('everything', 'echo', { message: `m${i}` }, { signal });
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('a call in flight ends as soon as its caller’s signal aborts, with the caller’s reason, and the server goes on', async () => {
    const s = open(() => ({ content: 'unused' }));
    const controller = new AbortController();
    const started = Date.now();
    const call = s.servers.connections.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 20, steps: 2 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('the person pressed Cancel')), 300);
    await expect(call).rejects.toThrow('the person pressed Cancel');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // A signal aborted before the call never reaches the server.
    await expect(
      s.servers.connections.callTool('everything', 'echo', { message: 'late' }, { signal: controller.signal }),
    ).rejects.toThrow('the person pressed Cancel');
    const after = await s.servers.connections.callTool(
      'everything',
      'echo',
      { message: 'still here' },
      { signal: new AbortController().signal },
    );
    expect(after.text).toBe('Echo: still here');
  });
});

describe('parallel calls', () => {
  it('a turn asking for a dozen tool calls at once runs and records each, and the model gets every answer, with no leak warning', async () => {
    // A dozen listeners on the step's signal are no leak: Node must not print that they are.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));
    const s = open((request) =>
      toolMessages(request).length === 0
        ? {
            toolCalls: Array.from({ length: 12 }, (_, i) => ({
              id: `call_${i}`,
              name: 'echo',
              arguments: { message: `call ${i + 1}` },
            })),
          }
        : {
            content: toolMessages(request)
              .map((m) => m.content)
              .join('|'),
          },
    );
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'echo' }] });
    const answer = (run.output as { values: { text: string }[] }).values[0]?.text.split('|');
    expect(answer).toEqual(Array.from({ length: 12 }, (_, i) => `Echo: call ${i + 1}`));
    const calls = s.runs.get(run.id).steps.find((x) => x.nodeId === 'agent')?.toolCalls ?? [];
    expect(calls.map((c) => c.id).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `call_${i}`).sort());
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});

describe('a tool that errors', () => {
  it('fails the agent step with TOOL_ERROR and the tool’s message', async () => {
    const s = open(() => ({ toolCalls: [{ name: 'get-resource-reference', arguments: { resourceId: -5 } }] }));
    const run = await runAgent(s, { tools: [{ server: 'everything', tool: 'get-resource-reference' }] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'TOOL_ERROR', nodeId: 'agent' });
    expect(run.error?.message).toContain('Invalid resourceId: -5');
    expect(tools.model().requests).toHaveLength(1);
  });
});
