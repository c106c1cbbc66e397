import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlowSchema, type FlowInput } from '../model/flow';
import type { RunEvent } from '../model/run';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { buildFlow, input, llm, output, template } from '../../tests/helpers/flow-builder';
import { testLlm } from '../../tests/helpers/llm';
import { startOpenAiServer, type OpenAiServer } from '../../tests/helpers/openai-server';
import { runFlow } from './run-flow';

/** A node that runs for each item of a list (Rivet's split run, Dify's iteration), against a local model. */
let server: OpenAiServer;
beforeEach(async () => {
  server = await startOpenAiServer((request) => ({
    content: `short: ${String(request.body.messages?.at(-1)?.content)}`,
  }));
});
afterEach(() => server.close());

async function run(flow: FlowInput, inputs: Record<string, unknown>, usePins = false) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    ...(usePins ? { usePins } : {}),
    flow: FlowSchema.parse(flow),
    inputs,
    llm: testLlm(server.url),
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    listeners: [(e) => events.push(e)],
  });
  const finished = (id: string) =>
    events.find(
      (e): e is Extract<RunEvent, { type: 'node.finished' }> => e.type === 'node.finished' && e.nodeId === id,
    );
  const failed = (id: string) =>
    events.find((e): e is Extract<RunEvent, { type: 'node.failed' }> => e.type === 'node.failed' && e.nodeId === id);
  return { result, finished, failed };
}

/** input (docs: a list) → summarise each doc (an LLM) → result. */
const summariseEach = (
  forEach: { items: string; concurrency?: number; onItemError?: 'continue' } = { items: '{{inputs.docs}}' },
): FlowInput =>
  buildFlow({
    parameters: [
      { name: 'docs', type: 'array' },
      { name: 'style', type: 'string', required: false },
    ],
    nodes: [
      input(),
      llm('summarise', 'Summarise {{item.title}} ({{inputs.style}})', {}, { forEach }),
      output('{{nodes.summarise.output}}'),
    ],
    edges: ['input>summarise', 'summarise>result'],
  });

const problemsOf = (flow: FlowInput) =>
  validateFlow(flow, { catalogue: nodeRegistry }).problems.map((p) => `${p.code} ${p.field ?? ''}: ${p.message}`);

describe('a node that runs for each item of a list', () => {
  it("runs once per item, each reading {{item}}, and gives the list of answers in the items' order", async () => {
    const docs = [{ title: 'Otters' }, { title: 'Bees' }, { title: 'Moles' }, { title: 'Owls' }, { title: 'Eels' }];
    const { result, finished } = await run(summariseEach({ items: '{{inputs.docs}}', concurrency: 2 }), {
      docs,
      style: 'brief',
    });
    expect(result.status).toBe('succeeded');
    const step = finished('summarise');
    expect(step?.output).toEqual(docs.map((d) => `short: Summarise ${d.title} (brief)`));
    expect(server.requests).toHaveLength(5);
    // Usage is the items' together; the step's input is the list it ran over.
    expect(step?.usage).toMatchObject({ inputTokens: 50, outputTokens: 25 });
    expect(step?.input).toEqual({ 'inputs.docs': docs, 'inputs.style': 'brief', items: docs });
    expect(result.output).toMatchObject({ kind: 'return_values' });
  });

  it('reads a JSON array a model answered as text, and an empty list gives an empty list', async () => {
    const flow = buildFlow({
      parameters: [{ name: 'topic', type: 'string' }],
      nodes: [
        input(),
        template('ideas', '["a {{inputs.topic}}", "b {{inputs.topic}}"]'),
        template('shout', '{{item}}!'),
        output('{{nodes.shout.output}}'),
      ],
      edges: ['input>ideas', 'ideas>shout', 'shout>result'],
    });
    const shout = flow.nodes.find((n) => n.id === 'shout')!;
    shout.forEach = { items: '{{nodes.ideas.output}}' };
    const { finished } = await run(flow, { topic: 'cat' });
    expect(finished('shout')?.output).toEqual(['a cat!', 'b cat!']);

    const empty = await run(summariseEach(), { docs: [] });
    expect(empty.result.status).toBe('succeeded');
    expect(empty.finished('summarise')?.output).toEqual([]);
  });

  it('fails FOR_EACH_NOT_A_LIST naming what it read, and the first failed item fails the node saying which', async () => {
    const notList = await run(summariseEach({ items: '{{inputs.style}}' }), { docs: [], style: 'brief' });
    expect(notList.result.error).toMatchObject({
      code: 'FOR_EACH_NOT_A_LIST',
      message: 'node "summarise" runs for each item of {{inputs.style}}, which gave the text "brief", not a list',
    });
    server.reply = (request) =>
      String(request.body.messages?.at(-1)?.content).includes('Bees') ? { status: 400 } : { content: 'fine' };
    const { result, failed } = await run(summariseEach({ items: '{{inputs.docs}}', concurrency: 1 }), {
      docs: [{ title: 'Otters' }, { title: 'Bees' }, { title: 'Moles' }],
    });
    expect(result.status).toBe('failed');
    expect(failed('summarise')?.error.message).toMatch(/^item 2 of 3: /);
    // One at a time: the item after the failed one never ran.
    expect(server.requests.map((r) => String(r.body.messages?.at(-1)?.content))).toEqual([
      'Summarise Otters ()',
      'Summarise Bees ()',
    ]);
  });

  it('with onItemError continue, a failed item gives null and is listed, the others go on; every item failing fails the node', async () => {
    server.reply = (request) =>
      String(request.body.messages?.at(-1)?.content).includes('Bees') ? { status: 400 } : { content: 'fine' };
    const docs = [{ title: 'Otters' }, { title: 'Bees' }, { title: 'Moles' }];
    const { result, finished } = await run(summariseEach({ items: '{{inputs.docs}}', onItemError: 'continue' }), {
      docs,
    });
    expect(result.status).toBe('succeeded');
    expect(finished('summarise')?.output).toEqual(['fine', null, 'fine']);
    expect(finished('summarise')?.input).toMatchObject({
      failedItems: [{ item: 2, code: 'PROVIDER_ERROR', message: expect.any(String) }],
    });
    server.reply = () => ({ status: 400 });
    const none = await run(summariseEach({ items: '{{inputs.docs}}', onItemError: 'continue' }), { docs });
    expect(none.result.status).toBe('failed');
    expect(none.result.error?.message).toMatch(/^every item failed; item 1: /);
  });

  it('retries a failed item alone, up to the node’s attempts: the items that succeeded are not asked again', async () => {
    const asked: Record<string, number> = {};
    let alwaysFails = 'Bees';
    server.reply = (request) => {
      const prompt = String(request.body.messages?.at(-1)?.content);
      const title = /Summarise (\w+)/.exec(prompt)?.[1] ?? '';
      asked[title] = (asked[title] ?? 0) + 1;
      // Bees is busy once (a 503), then answers; with alwaysFails it never does.
      if (title === alwaysFails || (title === 'Bees' && asked[title] === 1)) return { status: 503 };
      return { content: `short: ${prompt}` };
    };
    const flow = summariseEach({ items: '{{inputs.docs}}', concurrency: 1 });
    const summarise = flow.nodes.find((n) => n.id === 'summarise')!;
    summarise.maxAttempts = 3;
    const docs = [{ title: 'Otters' }, { title: 'Bees' }, { title: 'Moles' }];
    alwaysFails = '';
    const { result, finished } = await run(flow, { docs });
    expect(result.status).toBe('succeeded');
    expect(asked).toEqual({ Otters: 1, Bees: 2, Moles: 1 });
    const step = finished('summarise');
    expect(step?.output).toEqual(docs.map((d) => `short: Summarise ${d.title} ()`));
    expect(step?.attempts).toBe(1);
    expect(step?.retries).toEqual([
      { code: expect.any(String) as unknown, message: expect.stringMatching(/^item 2: /) },
    ]);

    // An item that keeps failing uses up its attempts, then fails the node once: nothing runs again.
    for (const title of Object.keys(asked)) delete asked[title];
    alwaysFails = 'Bees';
    const failing = await run(flow, { docs });
    expect(failing.result.status).toBe('failed');
    expect(asked).toEqual({ Otters: 1, Bees: 3 });
    expect(failing.failed('summarise')).toMatchObject({
      willRetry: false,
      attempt: 1,
      error: { message: expect.stringMatching(/^item 2 of 3: /) as unknown },
      retries: [{ message: expect.stringMatching(/^item 2: /) }, { message: expect.stringMatching(/^item 2: /) }],
    });
  });

  it("a pinned output is a list, each item what the node's JSON schema says it gives", async () => {
    const pinned = (output: unknown) => {
      const flow = summariseEach();
      flow.nodes[1]!.config = {
        ...flow.nodes[1]!.config,
        outputFormat: 'json',
        jsonSchema: { type: 'object', properties: { gist: { type: 'string' } }, required: ['gist'] },
      };
      flow.nodes[1]!.pin = { output: output as never };
      return flow;
    };
    const docs = [{ title: 'Otters' }];
    await expect(run(pinned({ gist: 'one' }), { docs }, true)).rejects.toMatchObject({
      data: { problems: [expect.objectContaining({ message: expect.stringContaining('so it gives a list') })] },
    });
    await expect(run(pinned([{ gist: 'one' }, { nope: 1 }]), { docs }, true)).rejects.toMatchObject({
      data: {
        problems: [
          expect.objectContaining({
            message: expect.stringContaining("item 2: (root) must have required property 'gist'"),
          }),
        ],
      },
    });
    const fits = await run(pinned([{ gist: 'one' }, { gist: 'two' }]), { docs }, true);
    expect(fits.finished('summarise')?.output).toEqual([{ gist: 'one' }, { gist: 'two' }]);
    expect(server.requests).toHaveLength(0);
  });

  it('says {{item}} where there is no item, and a node type that cannot run for each', () => {
    const flow = summariseEach();
    flow.nodes[1]!.forEach = undefined;
    expect(problemsOf(flow)).toContain(
      'FOR_EACH config.prompt: node "summarise" prompt: {{item.title}} — node "summarise" does not run for each item of a list (its Run for each setting)',
    );
    expect(problemsOf(summariseEach({ items: '{{item}}' }))).toContain(
      'FOR_EACH forEach.items: node "summarise" for each item of: {{item}} — the list is read before there is an item',
    );
    expect(problemsOf(summariseEach({ items: '{{nodes.result.output}}' }))).toContain(
      'UNRESOLVED_REFERENCE forEach.items: node "summarise" for each item of: {{nodes.result.output}} — node "result" is not upstream of "summarise"; connect it first',
    );
    const onOutput = summariseEach();
    onOutput.nodes[2]!.forEach = { items: '{{inputs.docs}}' };
    expect(problemsOf(onOutput)).toContain(
      'FOR_EACH forEach.items: node "result" runs for each item of a list, but a output node cannot',
    );
    const same = summariseEach();
    same.nodes[1]!.config = { prompt: 'Summarise {{inputs.docs}}' };
    expect(problemsOf(same)).toEqual([
      'FOR_EACH forEach.items: node "summarise" runs for each item of a list, but none of its fields reads {{item}}: every item runs the same',
    ]);
    expect(problemsOf(summariseEach())).toEqual([]);
  });
});
