import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { FlowInput } from '../../core/model/flow';
import { buildFlow, input } from '../helpers/flow-builder';
import {
  connectHttp,
  connectHttpV2,
  connectStdio,
  connectStdioV2,
  publishFlows,
  sendModern,
  spawnRawStdio,
  storedRunOf,
} from '../helpers/mcp';
import { useServedDatabase } from '../helpers/serve';

/**
 * Issue 19, point 5: an ask node pauses the run and asks the person at the
 * MCP client — elicitation/create for 2025-11-25 clients, an input_required
 * result for 2026-07-28 ones — over stdio and HTTP, with the real v1 and v2
 * SDK clients answering; a client that cannot be asked gets an error naming the node.
 */
const askFlow: FlowInput = {
  ...buildFlow({
    id: 'release',
    parameters: [{ name: 'version', type: 'string' }],
    nodes: [
      input(),
      {
        id: 'confirm',
        type: 'ask',
        config: {
          message: 'Ship {{inputs.version}}?',
          fields: [
            { name: 'ship', type: 'boolean' },
            { name: 'channel', type: 'enum', options: ['stable', 'beta'] },
          ],
        },
      },
      {
        id: 'result',
        type: 'output',
        config: {
          returnValues: [
            { id: 'r', text: 'ship={{nodes.confirm.output.ship}} channel={{nodes.confirm.output.channel}}' },
          ],
        },
      },
    ],
    edges: ['input>confirm', 'confirm>result'],
  }),
  name: 'Release',
  tool: { name: 'release_flow' },
};

const { db, serve } = useServedDatabase('ask', (services) => publishFlows(services, [askFlow]));

type Reply = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };
interface Asked {
  message: string;
  requestedSchema: unknown;
}

/** A client of either SDK that answers every question with `reply`, and remembers what it was asked. */
interface Connected {
  call(version: string): Promise<{ content: { text: string }[]; isError?: boolean }>;
  asked: Asked[];
  close(): Promise<void>;
}

async function connect(sdk: 'v1' | 'v2', transport: 'stdio' | 'http', reply: Reply | undefined): Promise<Connected> {
  const asked: Asked[] = [];
  const capabilities: Record<string, object> = reply ? { elicitation: { form: {} } } : {};
  const answer = (params: Asked) => {
    asked.push({ message: params.message, requestedSchema: params.requestedSchema });
    return reply as Reply;
  };
  const name = `ask-${sdk}-${transport}`;
  if (sdk === 'v1') {
    const setup = (client: Client) => {
      if (reply) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params as Asked));
    };
    const client =
      transport === 'stdio'
        ? (await connectStdio(db, name, { capabilities, setup })).client
        : await connectHttp(serve().mcpUrl, serve().token, name, { capabilities, setup });
    return {
      asked,
      call: (version) => client.callTool({ name: 'release_flow', arguments: { version } }) as never,
      close: () => client.close(),
    };
  }
  const setup = (client: ClientV2) => {
    if (reply) client.setRequestHandler('elicitation/create', (request) => answer(request.params as Asked) as never);
  };
  const client =
    transport === 'stdio'
      ? await connectStdioV2(db, 'modern', name, { capabilities, setup })
      : await connectHttpV2(serve().mcpUrl, serve().token, 'modern', name, { capabilities, setup });
  return {
    asked,
    call: (version) => client.callTool({ name: 'release_flow', arguments: { version } }) as never,
    close: () => client.close(),
  };
}

const REVISION = { v1: '2025-11-25 (v1 client, elicitation)', v2: '2026-07-28 (v2 client, input_required)' };

for (const sdk of ['v1', 'v2'] as const) {
  for (const transport of ['stdio', 'http'] as const) {
    describe(`an ask node over ${transport}, ${REVISION[sdk]}`, () => {
      it('asks the person at the client and goes on with the answer', async () => {
        const client = await connect(sdk, transport, { action: 'accept', content: { ship: true, channel: 'beta' } });
        const result = await client.call('2.1');
        await client.close();
        expect(result.isError ?? false).toBe(false);
        expect(result.content.map((c) => c.text)).toEqual(['ship=true channel=beta']);
        expect(client.asked).toEqual([
          {
            message: 'Ship 2.1?',
            requestedSchema: {
              type: 'object',
              properties: { ship: { type: 'boolean' }, channel: { type: 'string', enum: ['stable', 'beta'] } },
              required: ['ship', 'channel'],
            },
          },
        ]);
        const run = await storedRunOf(db, `ask-${sdk}-${transport}`);
        expect(run?.steps.find((s) => s.nodeId === 'confirm')).toMatchObject({
          status: 'succeeded',
          output: { ship: true, channel: 'beta' },
        });
      });

      it('fails the call naming the node when the person declines', async () => {
        const client = await connect(sdk, transport, { action: 'decline' });
        const result = await client.call('2.2');
        await client.close();
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(
          /HUMAN_INPUT_DECLINED: node "confirm": the person declined the question/,
        );
      });

      it('fails the call naming the node when the client cannot be asked', async () => {
        const client = await connect(sdk, transport, undefined);
        const result = await client.call('2.3');
        await client.close();
        expect(result.isError).toBe(true);
        expect(client.asked).toEqual([]);
        expect(result.content[0]?.text).toMatch(
          /HUMAN_INPUT_UNAVAILABLE: node "confirm" asks a person for input, and the MCP client.* does not support elicitation/,
        );
      });
    });
  }
}

describe('an ask node in a 2025-11-25 task (v1 client)', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}: the task shows input_required, tasks/result carries the question, the run goes on with the answer`, async () => {
      const asked: Asked[] = [];
      const setup = (client: Client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          const { message, requestedSchema } = request.params as Asked;
          asked.push({ message, requestedSchema });
          return { action: 'accept', content: { ship: false, channel: 'stable' } };
        });
      const name = `ask-task-${transport}`;
      const options = { capabilities: { elicitation: { form: {} } }, setup };
      const client =
        transport === 'stdio'
          ? (await connectStdio(db, name, options)).client
          : await connectHttp(serve().mcpUrl, serve().token, name, options);
      const seen: string[] = [];
      let text: string | undefined;
      for await (const message of client.experimental.tasks.callToolStream(
        { name: 'release_flow', arguments: { version: '4.0' } },
        undefined,
        { task: { ttl: 60_000 } },
      )) {
        if (message.type === 'taskCreated') seen.push('created');
        if (message.type === 'taskStatus') seen.push(message.task.status);
        if (message.type === 'error') throw message.error;
        if (message.type === 'result') text = (message.result.content as { text: string }[])[0]?.text;
      }
      await client.close();
      expect(seen[0]).toBe('created');
      expect(seen).toContain('input_required');
      expect(asked.map((a) => a.message)).toEqual(['Ship 4.0?']);
      expect(text).toBe('ship=false channel=stable');
      const run = await storedRunOf(db, name);
      expect(run?.status).toBe('succeeded');
      expect(run?.steps.find((s) => s.nodeId === 'confirm')?.output).toEqual({ ship: false, channel: 'stable' });
    });
  }

  it('a client that cannot be asked: the task fails, and its result names the node', async () => {
    const client = await connectHttp(serve().mcpUrl, serve().token, 'ask-task-mute');
    let taskId = '';
    const statuses: string[] = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'release_flow', arguments: { version: '4.1' } },
      undefined,
      { task: {} },
    )) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'taskStatus') statuses.push(message.task.status);
    }
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    await client.close();
    expect(statuses).not.toContain('input_required');
    expect(statuses.at(-1)).toBe('failed');
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /HUMAN_INPUT_UNAVAILABLE: node "confirm" asks a person for input, and the MCP client "ask-task-mute" does not support elicitation/,
    );
  });
});

describe('a 2026-07-28 retry', () => {
  it('naming no paused run is refused with a clear error', async () => {
    const body = await sendModern<{ error?: { code: number; message: string } }>(
      serve().mcpUrl,
      serve().token,
      'tools/call',
      {
        name: 'release_flow',
        arguments: { version: '3' },
        requestState: 'not-a-paused-run',
        inputResponses: { 'ask-1': { action: 'accept', content: { ship: true, channel: 'stable' } } },
      },
      { elicitation: { form: {} } },
    );
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toMatch(/requestState names no paused run of release_flow/);
  });
});

/**
 * A 2025-11-25 client spoken to message by message, over stdio or HTTP: it
 * calls release_flow and answers the question with `answer` (a whole
 * JSON-RPC response but its id), then returns the call's result.
 */
type RawAnswer = Record<string, unknown>;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'raw', version: '1' },
  },
};
const CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'release_flow', arguments: { version: '5' } },
};
type RawResult = { result?: { content: { text: string }[]; isError?: boolean } };

async function rawStdioCall(answer: RawAnswer): Promise<RawResult> {
  const raw = spawnRawStdio(db);
  try {
    return await new Promise<RawResult>((resolve, reject) => {
      raw.onMessage((message) => {
        if (message.id === 1) {
          raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          raw.send(CALL);
        } else if (message.method === 'elicitation/create') raw.send({ ...answer, id: message.id });
        else if (message.id === 2) resolve(message as RawResult);
      });
      raw.child.on('exit', (code) => reject(new Error(`flowbench mcp exited ${code}`)));
      raw.send(INITIALIZE);
    });
  } finally {
    raw.close();
  }
}

async function rawHttpCall(answer: RawAnswer): Promise<RawResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${serve().token}`,
  };
  const post = (body: object) => fetch(serve().mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
  const opened = await post(INITIALIZE);
  await opened.text();
  headers['mcp-session-id'] = opened.headers.get('mcp-session-id') ?? '';
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  // The call's answer and the question come on the call's SSE stream.
  const stream = (await post(CALL)).body as ReadableStream<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    const events = text.split('\n\n');
    text = events.pop() ?? '';
    for (const event of events) {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const message = JSON.parse(data.slice(6)) as { id?: unknown; method?: string };
      if (message.method === 'elicitation/create') {
        // A response is taken (202) whatever is wrong with it: it settles the question.
        expect((await post({ ...answer, id: message.id })).status).toBe(202);
      } else if (message.id === 2) return message as RawResult;
    }
  }
  throw new Error('the call stream ended without its answer');
}

describe('a 2025-11-25 client that answers the question with something unusable', () => {
  const cases: [string, RawAnswer, RegExp][] = [
    [
      'a result that is no object',
      { jsonrpc: '2.0', result: ['ship'] },
      /HUMAN_INPUT_INVALID: node "confirm": the client's answer is not an elicitation result \(its result must be an object\)/,
    ],
    [
      'a result that is no elicitation result',
      { jsonrpc: '2.0', result: { action: 'maybe' } },
      /HUMAN_INPUT_INVALID: node "confirm": the client's answer is not an elicitation result \(action: Invalid option/,
    ],
    [
      'an error without a code',
      { jsonrpc: '2.0', error: { message: 'no' } },
      /HUMAN_INPUT_INVALID: node "confirm": the client's answer is not an elicitation result \(its error.code must be an integer\)/,
    ],
    [
      'an answer of another JSON-RPC version',
      { jsonrpc: '1.0', result: { action: 'accept', content: { ship: true } } },
      /HUMAN_INPUT_INVALID: node "confirm": the client's answer is not an elicitation result \(jsonrpc must be "2.0"\)/,
    ],
    [
      'an error',
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' } },
      /HUMAN_INPUT_UNAVAILABLE: node "confirm" asks a person for input, and the client could not ask: MCP error -32601: Method not found/,
    ],
  ];
  for (const transport of ['stdio', 'http'] as const) {
    it.each(cases)(
      `over ${transport}, %s: the call fails at once, naming the node and what was wrong`,
      async (_, answer, expected) => {
        const started = Date.now();
        const reply = await (transport === 'stdio' ? rawStdioCall(answer) : rawHttpCall(answer));
        expect(reply.result?.isError).toBe(true);
        expect(reply.result?.content[0]?.text).toMatch(expected);
        // Before, a result or error the SDK refused left the question, and the call, waiting.
        expect(Date.now() - started).toBeLessThan(10_000);
      },
    );
  }
});
