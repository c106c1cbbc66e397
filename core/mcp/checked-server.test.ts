import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CheckedServer } from './checked-server';

/** A CheckedServer whose tools/call answers what `answer` gives, and a raw JSON-RPC line to it (no client-side checks). */
async function serve(answer: (name: string) => unknown) {
  const server = new CheckedServer(
    { name: 'checked', version: '1' },
    { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } } },
  );
  server.setRequestHandler(CallToolRequestSchema, (request) => answer(request.params.name) as never);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answers = new Map<unknown, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => answers.get((message as { id?: unknown }).id)?.(message);
  await clientSide.start();
  let id = 0;
  const request = (method: string, params: unknown) =>
    new Promise<JSONRPCMessage>((resolve) => {
      answers.set(++id, resolve);
      void clientSide.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'test', version: '1' },
  });
  return request;
}

describe("CheckedServer's tools/call", () => {
  it('answers params that break the schema -32602 with each issue in words, not as JSON', async () => {
    const request = await serve(() => ({ content: [] }));
    expect(await request('tools/call', { name: 5, arguments: 'x' })).toMatchObject({
      error: {
        code: -32602,
        message:
          'MCP error -32602: Invalid params: params.name: Invalid input: expected string, received number; ' +
          'params.arguments: Invalid input: expected record, received string',
      },
    });
    expect(await request('tools/call', { name: 'echo', arguments: {} })).toMatchObject({ result: { content: [] } });
  });

  it("checks the result as the SDK's wrapper did: a broken one is an internal error, naming what is wrong", async () => {
    const request = await serve((name) =>
      name === 'task' ? { task: { taskId: 7 } } : { content: [{ type: 'text', text: 3 }] },
    );
    expect(await request('tools/call', { name: 'echo' })).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/^MCP error -32603: Invalid tools\/call result: content/) },
    });
    // A call asking for a task is answered with the task created, checked as such.
    expect(await request('tools/call', { name: 'task', task: { ttl: 1000 } })).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/Invalid task creation result: task\.taskId: /) },
    });
  });
});
