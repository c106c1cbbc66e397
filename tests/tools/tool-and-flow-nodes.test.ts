import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResult } from '../../core/model/tool-result';
import { buildFlow, input } from '../helpers/flow-builder';
import { everythingStdio, filesystemStdio, fixtureStdio, startEverythingHttp } from '../helpers/mcp-servers';
import { closedPort, toolMessages } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';
import { useToolServices } from '../helpers/tool-services';

const tools = useToolServices();
const open = tools.open;
const tempDir = useTempDir();

const toolFlow = (id: string, config: Record<string, unknown>) =>
  buildFlow({
    id,
    parameters: [{ name: 'text', type: 'string', required: false, default: 'hi' }],
    nodes: [
      input(),
      { id: 'call', type: 'mcp_tool', config },
      { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.call.output}}' }] } },
    ],
    edges: ['input>call', 'call>result'],
  });

describe('mcp_tool node', () => {
  it('calls echo with a templated argument and get-sum with numbers typed from text', async () => {
    const s = open();
    const echo = s.flows.create(
      toolFlow('echo-flow', {
        server: 'everything',
        tool: 'echo',
        arguments: [{ name: 'message', value: 'said {{inputs.text}}' }],
      }),
    );
    const run = await s.runner.run({ flow: echo, inputs: { text: 'hello' }, trigger: 'cli' });
    expect(run.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: said hello' }] });
    const sum = s.flows.create(
      toolFlow('sum-flow', {
        tool: 'get-sum',
        arguments: [
          { name: 'a', value: '{{inputs.text}}' },
          { name: 'b', value: '5' },
        ],
      }),
    );
    const added = await s.runner.run({ flow: sum, inputs: { text: '37' }, trigger: 'cli' });
    expect(added.status).toBe('succeeded');
    expect(added.output).toMatchObject({ values: [{ text: expect.stringContaining('42') }] });
    const step = s.runs.get(added.id).steps.find((x) => x.nodeId === 'call');
    expect(step?.toolCalls).toEqual([expect.objectContaining({ server: 'everything', arguments: { a: 37, b: 5 } })]);
  });

  it('gives the image a tool answers with as its data: URL, which goes back to a client as an image between its texts', async () => {
    const s = open();
    const flow = s.flows.create(toolFlow('logo', { server: 'everything', tool: 'get-tiny-image', arguments: [] }));
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('succeeded');
    const output = s.runs.get(run.id).steps.find((x) => x.nodeId === 'call')?.output as string;
    const [before, image, after] = output.split('\n');
    expect(before).toBe("Here's the image you requested:");
    expect(image).toMatch(/^data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/]+=*$/);
    expect(after).toMatch(/MCP logo/);
    // The flow's answer, as an MCP client receives it: the text, the picture, the text.
    expect(toolResult(s.flows.get(flow.id), s.runs.get(run.id), false).content).toEqual([
      { type: 'text', text: before },
      { type: 'image', mimeType: 'image/png', data: image?.slice('data:image/png;base64,'.length) },
      { type: 'text', text: after },
    ]);
  });

  it('returns structured content as JSON the next nodes can reach into', async () => {
    const s = open();
    const flow = s.flows.create(
      buildFlow({
        id: 'weather',
        nodes: [
          input(),
          {
            id: 'call',
            type: 'mcp_tool',
            config: { tool: 'get-structured-content', arguments: [{ name: 'location', value: 'New York' }] },
          },
          {
            id: 'result',
            type: 'output',
            config: { returnValues: [{ id: 'r', text: '{{nodes.call.output.conditions}}' }] },
          },
        ],
        edges: ['input>call', 'call>result'],
      }),
    );
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: expect.stringMatching(/\w+/) }] });
    expect(s.runs.get(run.id).steps.find((x) => x.nodeId === 'call')?.output).toMatchObject({
      conditions: expect.any(String),
    });
  });

  it('a tool that errors is a TOOL_ERROR step with the tool’s own message, on a stored run', async () => {
    const s = open();
    const erring = s.flows.create(
      toolFlow('erring', {
        server: 'everything',
        tool: 'get-resource-reference',
        arguments: [{ name: 'resourceId', value: '-5' }],
      }),
    );
    const run = await s.runner.run({ flow: erring, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'TOOL_ERROR', nodeId: 'call' });
    expect(run.error?.message).toContain('Invalid resourceId: -5');
    const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'call');
    expect(step?.toolCalls?.[0]?.error?.code).toBe('TOOL_ERROR');
  });

  it('a tool that errors without a word is said so, not with an empty message', async () => {
    const s = open();
    s.servers.set(fixtureStdio('misbehaving', 'misbehaving-server.mjs'));
    const flow = s.flows.create(toolFlow('silent', { server: 'misbehaving', tool: 'fail_silently', arguments: [] }));
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.error).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'misbehaving/fail_silently answered with an error, and said nothing about it',
    });
  });

  it('a server that dies mid-call is SERVER_UNAVAILABLE with the last words of its stderr; the next call starts it again', async () => {
    const s = open();
    s.servers.set(fixtureStdio('misbehaving', 'misbehaving-server.mjs'));
    const crashing = s.flows.create(toolFlow('crashing', { server: 'misbehaving', tool: 'crash', arguments: [] }));
    const run = await s.runner.run({ flow: crashing, inputs: {}, trigger: 'cli' });
    expect(run.error).toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message: 'server "misbehaving" closed while crash ran (its stderr: FATAL: the index file is corrupt)',
    });
    const fine = s.flows.create(toolFlow('fine', { server: 'misbehaving', tool: 'ok', arguments: [] }));
    const again = await s.runner.run({ flow: fine, inputs: {}, trigger: 'cli' });
    expect(again.status).toBe('succeeded');
  });

  it('arguments that break the tool’s schema are TOOL_ARGUMENTS_INVALID and never reach it', async () => {
    const s = open();
    const bad = s.flows.create(
      toolFlow('bad', { server: 'everything', tool: 'get-sum', arguments: [{ name: 'a', value: 'not a number' }] }),
    );
    const run = await s.runner.run({ flow: bad, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID', nodeId: 'call' });
    expect(run.error?.message).toContain("must have required property 'b'");
    expect(run.error?.message).toContain('/a must be number');
  });

  it('types arguments as schemas written the FastMCP (pydantic) way ask: $ref models, anyOf with null', async () => {
    const s = open();
    s.servers.set(fixtureStdio('py', 'pydantic-server.mjs'));
    const flow = s.flows.create(
      toolFlow('trip', {
        server: 'py',
        tool: 'book_trip',
        arguments: [
          { name: 'travellers', value: '2' },
          { name: 'to', value: '{"city": "Oslo"}' },
          { name: 'urgent', value: 'true' },
          // Left empty: null, which an optional integer takes, not "" which it does not.
          { name: 'nights', value: '' },
          // Text is what it takes: kept as typed, the empty text too.
          { name: 'note', value: '' },
        ],
      }),
    );
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.error).toBeUndefined();
    const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'call');
    expect(step?.toolCalls?.[0]?.arguments).toEqual({
      travellers: 2,
      to: { city: 'Oslo' },
      urgent: true,
      nights: null,
      note: '',
    });
  });

  it('reaches server-everything over Streamable HTTP', async () => {
    const http = await startEverythingHttp();
    try {
      const s = open();
      s.servers.set({ name: 'remote', transport: 'http', url: http.url });
      const flow = s.flows.create(
        toolFlow('remote-echo', {
          server: 'remote',
          tool: 'echo',
          arguments: [{ name: 'message', value: 'over http' }],
        }),
      );
      const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
      expect(run.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: over http' }] });
      expect(s.servers.list().find((x) => x.config.name === 'remote')?.status).toMatchObject({ state: 'connected' });
    } finally {
      await http.close();
    }
  });

  it('reaches a server over HTTP again after it restarted: a new session, not its old one refused at every call', async () => {
    let http = await startEverythingHttp();
    try {
      const s = open();
      s.servers.set({ name: 'restarting', transport: 'http', url: http.url });
      const flow = s.flows.create(
        toolFlow('restarting-echo', {
          server: 'restarting',
          tool: 'echo',
          arguments: [{ name: 'message', value: '{{inputs.text}}' }],
        }),
      );
      const echo = async (text: string) => (await s.runner.run({ flow, inputs: { text }, trigger: 'cli' })).output;
      expect(await echo('before')).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: before' }] });
      // Restarted between two calls: it no longer knows the session (it answers 400 "No valid session ID").
      await http.close();
      http = await startEverythingHttp('streamableHttp', http.port);
      expect(await echo('after')).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: after' }] });
      // Down: said as the server being out of reach, and the call after it starts again connects anew.
      await http.close();
      const down = await s.runner.run({ flow, inputs: { text: 'down' }, trigger: 'cli' });
      expect(down.error).toMatchObject({ code: 'SERVER_UNAVAILABLE' });
      expect(down.error?.message).toContain(
        `server "restarting" cannot be reached at ${http.url} (connect ECONNREFUSED`,
      );
      http = await startEverythingHttp('streamableHttp', http.port);
      expect(await echo('back')).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: back' }] });
      // Back as something that forgets the session and then fails to start one: said as a failed connect.
      await http.close();
      const broken = createServer((request, response) =>
        response.writeHead(request.headers['mcp-session-id'] ? 404 : 500).end('broken'),
      );
      await new Promise<void>((resolve) => broken.listen(http.port, '127.0.0.1', resolve));
      try {
        const failed = await s.runner.run({ flow, inputs: { text: 'broken' }, trigger: 'cli' });
        expect(failed.error).toMatchObject({ code: 'SERVER_UNAVAILABLE' });
        expect(failed.error?.message).toContain('did not start: it failed with HTTP 500');
      } finally {
        broken.closeAllConnections();
        await new Promise((resolve) => broken.close(resolve));
      }
    } finally {
      await http.close();
    }
  });
});

describe('a server of the older HTTP+SSE transport', () => {
  it('is reached at its URL over SSE once it refuses Streamable HTTP, as the specification asks of clients; the status says so', async () => {
    const sse = await startEverythingHttp('sse');
    try {
      const s = open();
      s.servers.set({ name: 'legacy', transport: 'http', url: sse.url });
      const flow = s.flows.create(
        toolFlow('legacy-echo', {
          server: 'legacy',
          tool: 'echo',
          arguments: [{ name: 'message', value: 'over sse' }],
        }),
      );
      const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
      expect(run.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: over sse' }] });
      expect(s.servers.list().find((x) => x.config.name === 'legacy')?.status).toMatchObject({
        state: 'connected',
        transport: 'sse',
      });
    } finally {
      await sse.close();
    }
  });

  it('a server refusing with 401 is not tried over SSE: the refusal is what is said, and where a token goes', async () => {
    const refusing = createServer((_request, response) => response.writeHead(401).end('no token'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const s = open();
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`;
      s.servers.set({ name: 'locked', transport: 'http', url });
      const status = (await s.servers.test('locked')).status;
      expect(status).toMatchObject({ state: 'failed' });
      expect(status.transport).toBeUndefined();
      expect(status.lastError?.message).toContain('refused the connection (HTTP 401: ');
      expect(status.lastError?.message).toContain('takes it in its headers (Authorization: Bearer …)');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});

describe('an HTTP server that ends a call without its answer', () => {
  it('fails the call then, saying so, not a minute later as a call that "took longer than" its limit', async () => {
    // Answers as MCP does until a tool call, whose event stream it ends without the answer (as a server
    // that fails mid-call does): the SDK would wait for the answer until the call's time limit.
    const cutting = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        // The SDK's stream for server messages (GET) and its goodbye (DELETE): none here.
        if (request.method !== 'POST') return void response.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        const answer = (result: unknown) =>
          response
            .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'one' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        if (message.method === 'initialize')
          return answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'cut', version: '1' },
          });
        if (message.method === 'tools/list')
          return answer({ tools: [{ name: 'work', inputSchema: { type: 'object' } }] });
        if (message.method === 'tools/call') {
          response.writeHead(200, { 'content-type': 'text/event-stream' }).write(': working\n\n');
          return void setTimeout(() => response.end(), 20);
        }
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
    try {
      const s = open();
      s.servers.set({
        name: 'cutting',
        transport: 'http',
        url: `http://127.0.0.1:${(cutting.address() as AddressInfo).port}/mcp`,
      });
      const flow = s.flows.create(toolFlow('cut', { server: 'cutting', tool: 'work', arguments: [] }));
      const started = Date.now();
      const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
      expect(run.error).toMatchObject({
        code: 'SERVER_UNAVAILABLE',
        message: 'server "cutting" ended its answer to work without the answer: it may have stopped or failed mid-call',
      });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      cutting.closeAllConnections();
      await new Promise((resolve) => cutting.close(resolve));
    }
  });
});

describe('a URL that is not an MCP endpoint', () => {
  it('nobody listening there is said as that, not "fetch failed"', async () => {
    const s = open();
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    s.servers.set({ name: 'nobody', transport: 'http', url });
    const error = (await s.servers.test('nobody')).status.lastError;
    expect(error?.message).toContain(
      `MCP server "nobody" (${url}) did not start: it cannot be reached (connect ECONNREFUSED 127.0.0.1:`,
    );
  });

  it.each([
    ['a web page', 'text/html', '<html><body>Welcome</body></html>', 'it answered with text/html, not MCP'],
    ['broken JSON', 'application/json', '{"jsonrpc": "2.0",', 'its answer is not JSON ('],
    ['JSON of another API', 'application/json', '{"status": "ok"}', 'its answer is JSON but no MCP message'],
  ])('answering with %s is said as that, with where to look', async (_, type, body, said) => {
    const other = createServer((_request, response) => response.writeHead(200, { 'content-type': type }).end(body));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const s = open();
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
      s.servers.set({ name: 'site', transport: 'http', url });
      const error = (await s.servers.test('site')).status.lastError;
      expect(error?.code).toBe('SERVER_UNAVAILABLE');
      expect(error?.message).toContain(`MCP server "site" (${url}) did not start: ${said}`);
      expect(error?.message).toContain("is this the server's MCP endpoint (often ending in /mcp)?");
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('an agent with server-filesystem on a temporary folder', () => {
  it('reads the file the model asks for and answers from it', async () => {
    const s = open();
    const folder = tempDir();
    writeFileSync(join(folder, 'note.txt'), 'The meeting moved to Thursday.');
    s.servers.set(filesystemStdio(folder));
    tools.model().reply = (request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'read_text_file', arguments: { path: join(folder, 'note.txt') } }] }
        : { content: `From the note: ${toolMessages(request)[0]?.content ?? ''}` };
    const flow = s.flows.create(
      buildFlow({
        id: 'reader',
        nodes: [
          input(),
          {
            id: 'agent',
            type: 'agent',
            config: { prompt: 'When is the meeting?', tools: [{ server: 'files', tool: 'read_text_file' }] },
          },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.agent.output}}' }] } },
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.output).toEqual({
      kind: 'return_values',
      values: [{ id: 'r', text: 'From the note: The meeting moved to Thursday.' }],
    });
  });
});

const caller = (called: string) =>
  buildFlow({
    id: `calls-${called}`,
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      input(),
      {
        id: 'sub',
        type: 'flow',
        config: { flow: called, inputs: [{ name: 'text', value: 'about {{inputs.topic}}' }] },
      },
      {
        id: 'result',
        type: 'output',
        config: { returnValues: [{ id: 'r', text: 'child said: {{nodes.sub.output}}' }] },
      },
    ],
    edges: ['input>sub', 'sub>result'],
  });

describe('flow node (subflow)', () => {
  it("runs the called flow's published version as a linked child run", async () => {
    const s = open();
    const child = s.flows.create(
      toolFlow('child', {
        server: 'everything',
        tool: 'echo',
        arguments: [{ name: 'message', value: '{{inputs.text}}' }],
      }),
    );
    s.versions.publish(child.id);
    const parent = s.flows.create(caller('child'));
    const run = await s.runner.run({ flow: parent, inputs: { topic: 'otters' }, trigger: 'cli' });
    expect(run.output).toEqual({
      kind: 'return_values',
      values: [{ id: 'r', text: 'child said: Echo: about otters' }],
    });
    const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'sub');
    expect(step?.childRunId).toEqual(expect.any(String));
    const childRun = s.runs.get(step?.childRunId as string);
    expect(childRun).toMatchObject({ trigger: 'flow', parentRunId: run.id, flowVersion: 1, status: 'succeeded' });
  });

  it('a flow that is not published is a SUBFLOW_NOT_PUBLISHED step error on a stored run', async () => {
    const s = open();
    s.flows.create(toolFlow('draft-only', { tool: 'echo', arguments: [{ name: 'message', value: 'x' }] }));
    const parent = s.flows.create(caller('draft-only'));
    const run = await s.runner.run({ flow: parent, inputs: { topic: 'x' }, trigger: 'cli' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'SUBFLOW_NOT_PUBLISHED', nodeId: 'sub' });
    expect(s.runs.get(run.id).status).toBe('failed');
  });

  it('the editor is told before a run: a called flow never published, an input it requires left out, one it does not take', () => {
    const s = open();
    const child = s.flows.create({
      ...toolFlow('needs-text', { tool: 'echo', arguments: [{ name: 'message', value: '{{inputs.text}}' }] }),
      parameters: [
        { name: 'text', type: 'string' },
        { name: 'tone', type: 'string', required: false },
      ],
    });
    const parent = s.flows.create(caller('needs-text'));
    const codes = (flow = parent) => s.flows.problemsOf(flow).filter((p) => p.code.startsWith('SUBFLOW_'));
    expect(codes()).toEqual([
      expect.objectContaining({
        code: 'SUBFLOW_NOT_PUBLISHED',
        severity: 'error',
        nodeId: 'sub',
        field: 'config.flow',
        message: expect.stringContaining('has no published version yet'),
      }),
    ]);
    expect(() => s.versions.publish(parent.id)).toThrow(/has no published version yet/);

    s.versions.publish(child.id);
    // The caller gives "text", the one input required: nothing to say.
    expect(codes()).toEqual([]);
    const sub = parent.nodes.find((n) => n.id === 'sub')!;
    s.flows.applyChanges(parent.id, {
      updateNodes: [{ id: 'sub', config: { ...sub.config, inputs: [{ name: 'txt', value: 'x' }] } }],
    });
    expect(codes(s.flows.get(parent.id))).toEqual([
      expect.objectContaining({
        code: 'SUBFLOW_INPUTS',
        field: 'config.inputs',
        message: expect.stringContaining('requires the input "text" (string): add it under Inputs'),
      }),
      expect.objectContaining({
        code: 'SUBFLOW_INPUTS',
        field: 'config.inputs.0.name',
        message: expect.stringContaining('takes no input "txt" (it takes "text", "tone")'),
      }),
    ]);
  });

  it('a flow calling itself, directly or through another, is a SUBFLOW_CYCLE problem and cannot publish', async () => {
    const s = open();
    const self = s.flows.create({ ...caller('loop'), id: 'loop', tool: { name: 'loop' } });
    expect(s.flows.problemsOf(self).map((p) => p.code)).toContain('SUBFLOW_CYCLE');
    expect(() => s.versions.publish(self.id)).toThrow(/comes back to this flow/);
    const a = s.flows.create({ ...caller('b'), id: 'a', tool: { name: 'a' } });
    s.flows.create({ ...caller('a'), id: 'b', tool: { name: 'b' } });
    const problem = s.flows.problemsOf(a).find((p) => p.code === 'SUBFLOW_CYCLE');
    expect(problem?.message).toContain('→');
    // At run time too, should a cycle slip in through published versions.
    const run = await s.runner.run({ flow: self, inputs: { topic: 'x' }, trigger: 'cli' });
    expect(run.error?.code).toMatch(/SUBFLOW_CYCLE|SUBFLOW_NOT_PUBLISHED/);
  });
});

describe('published flows as an agent’s tools', () => {
  it('the agent calls a published flow as a tool (server "flowbench"); the call is a child run of the agent’s run', async () => {
    const s = open();
    const child = s.flows.create({
      ...toolFlow('shout', {
        server: 'everything',
        tool: 'echo',
        arguments: [{ name: 'message', value: '{{inputs.text}}!' }],
      }),
      tool: { name: 'shout', description: 'Shouts the text back.' },
    });
    s.versions.publish(child.id);
    tools.model().reply = (request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'shout', arguments: { text: 'otters' } }] }
        : { content: `flow said ${toolMessages(request)[0]?.content ?? ''}` };
    const parent = s.flows.create(
      buildFlow({
        id: 'uses-flow',
        nodes: [
          input(),
          {
            id: 'agent',
            type: 'agent',
            config: { prompt: 'Shout otters', tools: [{ server: 'flowbench', tool: 'shout' }] },
          },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.agent.output}}' }] } },
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    const run = await s.runner.run({ flow: parent, inputs: {}, trigger: 'cli' });
    expect(run.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'flow said Echo: otters!' }] });
    const offered = tools.model().requests[0]?.body.tools as {
      function: { name: string; description: string; parameters: unknown };
    }[];
    expect(offered[0]?.function).toMatchObject({
      name: 'shout',
      description: 'Shouts the text back.',
      parameters: { properties: { text: { type: 'string' } } },
    });
    const call = s.runs.get(run.id).steps.find((x) => x.nodeId === 'agent')?.toolCalls?.[0];
    expect(call).toMatchObject({ server: 'flowbench', tool: 'shout', result: 'Echo: otters!' });
    expect(s.runs.get(call?.runId as string)).toMatchObject({
      trigger: 'flow',
      parentRunId: run.id,
      status: 'succeeded',
    });
  });

  it("a published flow that answers with a picture gives the agent's model the picture, as a tool's image does", async () => {
    const s = open();
    const logo = s.flows.create({
      ...toolFlow('logo', { server: 'everything', tool: 'get-tiny-image', arguments: [] }),
      tool: { name: 'logo', description: 'The MCP logo.' },
    });
    s.versions.publish(logo.id);
    tools.model().reply = (request, index) =>
      index === 0 ? { toolCalls: [{ name: 'logo', arguments: {}, id: 'call_1' }] } : { content: 'A logo.' };
    const parent = s.flows.create(
      buildFlow({
        id: 'looks',
        nodes: [
          input(),
          { id: 'agent', type: 'agent', config: { prompt: 'Look', tools: [{ server: 'flowbench', tool: 'logo' }] } },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.agent.output}}' }] } },
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    const run = await s.runner.run({ flow: parent, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('succeeded');
    const sent = tools.model().requests[1]?.body.messages ?? [];
    const answer = toolMessages(tools.model().requests[1]!)[0]?.content ?? '';
    expect(answer).toContain('[image 1]');
    expect(answer).not.toContain('base64');
    expect(sent[sent.findIndex((m) => m.role === 'tool') + 1]).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'The image logo answered with (call call_1):' },
        { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) } },
      ],
    });
  });

  it('an agent using its own flow as a tool is a SUBFLOW_CYCLE problem', () => {
    const s = open();
    const own = s.flows.create(
      buildFlow({
        id: 'selfish',
        nodes: [
          input(),
          { id: 'agent', type: 'agent', config: { prompt: 'x', tools: [{ server: 'flowbench', tool: 'selfish' }] } },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.agent.output}}' }] } },
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    expect(s.flows.problemsOf(own)).toContainEqual(
      expect.objectContaining({ code: 'SUBFLOW_CYCLE', nodeId: 'agent', field: 'config.tools.0.tool' }),
    );
  });

  it('an MCP tool node calls a published flow as the tool "flowbench/<tool name>": typed arguments, a linked child run', async () => {
    const s = open();
    const child = s.flows.create({
      ...toolFlow('repeat', {
        server: 'everything',
        tool: 'echo',
        arguments: [{ name: 'message', value: '{{inputs.text}} x{{inputs.times}}' }],
      }),
      parameters: [
        { name: 'text', type: 'string' },
        { name: 'times', type: 'integer' },
      ],
    });
    s.versions.publish(child.id);
    const parent = s.flows.create(
      toolFlow('calls-repeat', {
        server: 'flowbench',
        tool: 'repeat',
        arguments: [
          { name: 'text', value: '{{inputs.text}}' },
          { name: 'times', value: '3' },
        ],
      }),
    );
    expect(s.flows.problemsOf(parent)).toEqual([]);
    const run = await s.runner.run({ flow: parent, inputs: { text: 'otters' }, trigger: 'cli' });
    expect(run.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'Echo: otters x3' }] });
    const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'call');
    // "3" typed as the flow's integer parameter asks, as with any tool's schema.
    expect(step?.input).toEqual({ text: 'otters', times: 3 });
    expect(step?.toolCalls).toEqual([
      expect.objectContaining({ server: 'flowbench', tool: 'repeat', result: 'Echo: otters x3' }),
    ]);
    expect(s.runs.get(step?.childRunId as string)).toMatchObject({
      trigger: 'flow',
      parentRunId: run.id,
      status: 'succeeded',
    });
  });

  it('an MCP tool node naming a published flow is checked as a flow node is: unknown, unpublished, arguments, cycle', () => {
    const s = open();
    const problems = (flow: { id: string }) =>
      s.flows.problemsOf(s.flows.get(flow.id)).map((p) => ({ code: p.code, field: p.field, message: p.message }));
    const unknown = s.flows.create(toolFlow('calls-nothing', { server: 'flowbench', tool: 'nothing' }));
    expect(problems(unknown)).toEqual([
      { code: 'MISSING_FLOW', field: 'config.tool', message: 'no saved flow is called "nothing"' },
    ]);
    s.flows.create({
      ...toolFlow('wants-text', { tool: 'echo', arguments: [{ name: 'message', value: '{{inputs.text}}' }] }),
      parameters: [{ name: 'text', type: 'string' }],
    });
    const caller = s.flows.create(
      toolFlow('calls-wants-text', {
        server: 'flowbench',
        tool: 'wants-text',
        arguments: [{ name: 'txt', value: 'x' }],
      }),
    );
    expect(problems(caller)).toEqual([
      expect.objectContaining({ code: 'SUBFLOW_NOT_PUBLISHED', field: 'config.tool' }),
    ]);
    s.versions.publish('wants-text');
    expect(problems(caller)).toEqual([
      {
        code: 'SUBFLOW_INPUTS',
        field: 'config.arguments',
        message: '"Test flow" requires the input "text" (string): add it under Arguments',
      },
      {
        code: 'SUBFLOW_INPUTS',
        field: 'config.arguments.0.name',
        message: '"Test flow" takes no input "txt" (it takes "text")',
      },
    ]);
    const self = s.flows.create(toolFlow('self-tool', { server: 'flowbench', tool: 'self-tool' }));
    expect(problems(self).map((p) => p.code)).toContain('SUBFLOW_CYCLE');
  });

  it('refuses a server named "flowbench": the name stands for the published flows', () => {
    const s = open();
    expect(() => s.servers.set({ ...everythingStdio(), name: 'flowbench' })).toThrow(/stands for your published flows/);
  });
});
