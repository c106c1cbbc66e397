import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../core/model/run';
import { ROOT, runCli, runJson, setTestProvider } from '../helpers/cli';
import { startEverythingHttp } from '../helpers/mcp-servers';
import { n8nChatTrigger } from '../helpers/n8n';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

/**
 * An n8n workflow, as n8n's Download writes it, imported with `flowbench
 * import` and run with `flowbench run`: its LLM chain asks the local test
 * model, its If takes the branch the answer says, its HTTP Request calls a
 * local server with the fields its Edit Fields node set, and its Stop and
 * Error fails the run with its message.
 */
const tempDir = useTempDir();
let model: OpenAiServer;
let answer: string;
let api: Server;
let received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
let db: string;

beforeEach(async () => {
  answer = 'billing';
  model = await startOpenAiServer(() => ({ content: answer }));
  received = [];
  api = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body });
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ticketId: 42 }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  db = join(tempDir(), 'n8n.db');
  await setTestProvider(db, model.url, 'test-model', '--default');
});
afterEach(async () => {
  await model.close();
  await new Promise((resolve) => api.close(resolve));
});

/** Imports an n8n workflow through the CLI, as a file of it; what `import` printed. */
async function importWorkflow(workflow: unknown, name: string): Promise<string> {
  const file = join(tempDir(), `${name}.json`);
  writeFileSync(file, JSON.stringify(workflow));
  const imported = await runCli(['--db', db, 'import', file]);
  expect(imported.code).toBe(0);
  return imported.stdout;
}

/** The triage fixture with its HTTP Request pointed at the local server. */
function triageFile(): string {
  const workflow = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/formats/n8n-triage.json'), 'utf8')) as {
    nodes: { name: string; parameters: Record<string, unknown> }[];
  };
  const port = (api.address() as AddressInfo).port;
  const http = workflow.nodes.find((n) => n.name === 'File with billing')!;
  http.parameters.url = `=http://127.0.0.1:${port}/queues/{{ $('Edit Fields').item.json.team }}`;
  const file = join(tempDir(), 'Ticket triage.json');
  writeFileSync(file, JSON.stringify(workflow));
  return file;
}

describe('an n8n workflow', () => {
  it('imports, says what it changed, and runs as it ran in n8n: each branch of its If', async () => {
    const imported = await runCli(['--db', db, 'import', triageFile()]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('imported "Ticket triage" (n8n)');
    expect(imported.stdout).toContain(`n8n's credential "OpenAi account" is not`);
    // As a Flowbench file's, the URL its HTTP Request calls is said first, a problem to dismiss once trusted.
    expect(imported.stdout).toContain(
      'IMPORT_PROBLEM node File_with_billing: node File_with_billing: calls POST http://127.0.0.1:',
    );
    const refusedRun = await runCli(['--db', db, 'run', 'Ticket_triage', '--input', 'ticket=x']);
    expect(refusedRun.code).toBe(1);
    expect(received).toEqual([]);
    await runJson(['--db', db, 'dismiss', 'Ticket_triage', 'File_with_billing']);

    const run = await runJson<RunRecord>(['--db', db, 'run', 'Ticket_triage', '--input', 'ticket=Refund my invoice']);
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ kind: 'return_values', values: [{ id: 'result', text: '{"ticketId":42}' }] });
    // The model got the chain's prompt, with Edit Fields' field in it.
    expect(model.requests.at(-1)?.body.messages).toEqual([
      { role: 'system', content: 'Answer with one word.' },
      { role: 'user', content: 'Classify this ticket as billing or other: Refund my invoice' },
    ]);
    expect(received).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/queues/support',
        headers: expect.objectContaining({ 'x-team': 'support', 'content-type': 'application/json' }),
        body: '{"ticket": "Refund my invoice", "queue": "billing"}',
      }),
    ]);

    answer = 'other';
    const refused = await runCli(['--db', db, 'run', 'Ticket_triage', '--input', 'ticket=Hello', '--json']);
    expect(refused.code).toBe(1);
    const failed = JSON.parse(refused.stdout) as RunRecord;
    // `partial`: it failed after nodes that finished, whose results are kept.
    expect(failed.status).toBe('partial');
    expect(failed.error).toMatchObject({ nodeId: 'Stop_and_Error' });
    expect(failed.error?.message).toContain('Not a billing ticket: other');
    expect(received).toHaveLength(1);
  });

  it('a workflow calling the triage as a sub-workflow calls the imported flow of its name, with its inputs', async () => {
    expect((await runCli(['--db', db, 'import', triageFile()])).code).toBe(0);
    await runJson(['--db', db, 'dismiss', 'Ticket_triage', 'File_with_billing']);
    expect((await runCli(['--db', db, 'publish', 'Ticket_triage'])).code).toBe(0);
    const intake = {
      name: 'Intake',
      nodes: [
        n8nChatTrigger(),
        {
          name: 'Triage',
          type: 'n8n-nodes-base.executeWorkflow',
          typeVersion: 1.2,
          position: [220, 0],
          parameters: {
            workflowId: { __rl: true, value: 'wf7', mode: 'list', cachedResultName: 'Ticket triage' },
            workflowInputs: { mappingMode: 'defineBelow', value: { ticket: '={{ $json.chatInput }}' } },
            options: {},
          },
        },
      ],
      connections: { Chat: { main: [[{ node: 'Triage', type: 'main', index: 0 }]] } },
    };
    expect(await importWorkflow(intake, 'intake')).toContain(
      'it calls the flow "Ticket triage": import the n8n workflow "Ticket triage" too',
    );
    const run = await runJson<RunRecord>(['--db', db, 'run', 'Intake', '--input', 'chatInput=My invoice is wrong']);
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: '{"ticketId":42}' }] });
    expect(received.at(-1)?.body).toBe('{"ticket": "My invoice is wrong", "queue": "billing"}');
  });

  it("a Text Classifier routes the message to the branch of the category the model names, the others' nodes skipped", async () => {
    const branch = (name: string, y: number) => ({
      name,
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [440, y],
      parameters: {
        assignments: { assignments: [{ name: 'queue', value: `=${name}: {{ $json.chatInput }}`, type: 'string' }] },
      },
    });
    const routing = {
      name: 'Routing',
      nodes: [
        n8nChatTrigger(),
        {
          name: 'Classify',
          type: '@n8n/n8n-nodes-langchain.textClassifier',
          typeVersion: 1,
          position: [220, 0],
          parameters: {
            inputText: '={{ $json.chatInput }}',
            categories: {
              categories: [
                { category: 'billing', description: 'invoices, refunds' },
                { category: 'shipping', description: 'where a parcel is' },
              ],
            },
            options: { fallback: 'other' },
          },
        },
        branch('Billing', -200),
        branch('Shipping', 0),
        branch('Other', 200),
      ],
      connections: {
        Chat: { main: [[{ node: 'Classify', type: 'main', index: 0 }]] },
        Classify: {
          main: [
            [{ node: 'Billing', type: 'main', index: 0 }],
            [{ node: 'Shipping', type: 'main', index: 0 }],
            [{ node: 'Other', type: 'main', index: 0 }],
          ],
        },
      },
    };
    await importWorkflow(routing, 'routing');
    const ask = (message: string) =>
      runJson<RunRecord>(['--db', db, 'run', 'Routing', '--input', `chatInput=${message}`]);

    answer = '{"category":"shipping"}';
    const shipped = await ask('Where is my parcel?');
    expect(shipped.status).toBe('succeeded');
    expect(shipped.output).toMatchObject({ values: [{ text: '{"queue":"Shipping: Where is my parcel?"}' }] });
    const status = (id: string) => shipped.steps.find((step) => step.nodeId === id)?.status;
    expect([status('Billing'), status('Shipping'), status('Other')]).toEqual(['skipped', 'succeeded', 'skipped']);
    // The model was told the categories, and asked for one of them.
    expect(String(model.requests.at(-1)?.body.messages?.[0]?.content)).toContain(
      'billing: invoices, refunds\nshipping: where a parcel is',
    );

    answer = '{"category":"other"}';
    expect((await ask('Hello')).output).toMatchObject({ values: [{ text: '{"queue":"Other: Hello"}' }] });
  });

  it("an AI Agent's MCP Client Tool at an SSE endpoint: the server added as the import says, the agent calls its tool", async () => {
    const sse = await startEverythingHttp('sse');
    try {
      const agent = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/formats/n8n-chat-agent.json'), 'utf8')) as {
        nodes: { name: string; typeVersion: number; parameters: Record<string, unknown> }[];
      };
      // As n8n's MCP Client Tool 1.0 writes it: an SSE endpoint, the tools chosen.
      const tool = agent.nodes.find((n) => n.name === 'Orders MCP')!;
      tool.typeVersion = 1;
      tool.parameters = { sseEndpoint: sse.url, include: 'selected', includeTools: ['echo'] };
      const said = await importWorkflow(agent, 'agent');
      const command = /`flowbench (servers add Orders_MCP --url \S+)`/.exec(said)?.[1];
      expect(command).toBe(`servers add Orders_MCP --url ${sse.url}`);
      expect((await runCli(['--db', db, ...command!.split(' ')])).code).toBe(0);
      const tested = await runCli(['--db', db, 'servers', 'test', 'Orders_MCP']);
      expect(tested.stdout).toContain('over the older HTTP+SSE transport');

      model.reply = (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: 'echo', arguments: { message: 'order 7' } }] }
          : { content: 'Order 7 is on its way.' };
      const run = await runJson<RunRecord>([
        '--db',
        db,
        'run',
        'Support_agent',
        '--input',
        'chatInput=Where is order 7?',
      ]);
      expect(run.status).toBe('succeeded');
      expect(run.output).toMatchObject({ values: [{ text: 'Order 7 is on its way.' }] });
      const step = run.steps.find((s) => s.nodeId === 'AI_Agent');
      expect(step?.toolCalls).toEqual([
        expect.objectContaining({
          server: 'Orders_MCP',
          tool: 'echo',
          result: 'Echo: order 7',
        }),
      ]);
    } finally {
      await sse.close();
    }
  });

  it("an AI Agent's chat: the message is its prompt, its memory is per conversation", async () => {
    const file = join(ROOT, 'tests/fixtures/formats/n8n-chat-agent.json');
    const agent = JSON.parse(readFileSync(file, 'utf8')) as {
      nodes: { name: string }[];
      connections: Record<string, unknown>;
    };
    // Without its MCP tool: the agent's tool server is not part of this test.
    agent.nodes = agent.nodes.filter((n) => n.name !== 'Orders MCP');
    delete agent.connections['Orders MCP'];
    await importWorkflow(agent, 'agent');

    answer = 'Your order ships Monday.';
    const say = (message: string) =>
      runJson<RunRecord>([
        '--db',
        db,
        'run',
        'Support_agent',
        '--input',
        `chatInput=${message}`,
        '--conversation',
        'ada',
      ]);
    expect((await say('Where is my order?')).status).toBe('succeeded');
    const second = await say('And the invoice?');
    expect(second.output).toMatchObject({ values: [{ text: 'Your order ships Monday.' }] });
    const messages = model.requests.at(-1)?.body.messages ?? [];
    expect(messages[0]).toEqual({ role: 'system', content: 'You answer questions about orders.' });
    expect(messages.map((m) => String(m.content))).toContainEqual(
      expect.stringContaining('- Your order ships Monday.'),
    );
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'And the invoice?' });
  });
});
