import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlowbenchError } from '../model/errors';
import type { FlowInput } from '../model/flow';
import type { RunEvent } from '../model/run';
import { FlowSchema } from '../model/flow';
import { buildFlow, input, llm, output, template } from '../../tests/helpers/flow-builder';
import { testLlm } from '../../tests/helpers/llm';
import { closedPort, startOpenAiServer, type OpenAiServer } from '../../tests/helpers/openai-server';
import { prepareFlow, runFlow, type RunOptions } from './run-flow';

let server: OpenAiServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(() => server.close());

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

async function run(flow: FlowInput, inputs: Record<string, unknown> = {}, options: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    flow: FlowSchema.parse(flow),
    inputs,
    llm: testLlm(server.url),
    retry: FAST_RETRY,
    listeners: [(e) => events.push(e)],
    ...options,
  });
  const statusOf = (id: string) =>
    events
      .filter((e) => 'nodeId' in e && e.nodeId === id && e.type !== 'node.token')
      .map((e) => e.type.replace('node.', ''));
  return { result, events, statusOf };
}

const chain = buildFlow({
  parameters: [{ name: 'topic', type: 'string' }],
  nodes: [
    input(),
    template('ask', 'Tell me about {{inputs.topic}}.'),
    llm('answer', '{{nodes.ask.output}}', { system: 'Be brief.' }),
    output('{{nodes.answer.output}}'),
  ],
  edges: ['input>ask', 'ask>answer', 'answer>result'],
});

describe('runFlow', () => {
  it('runs a flow prepared beforehand (an MCP server between tools/list and a call) as it runs one not prepared; a broken one is still refused at its run', async () => {
    server.reply = () => ({ chunks: ['Otters hold hands.'] });
    const flow = FlowSchema.parse(chain);
    prepareFlow(flow);
    prepareFlow(flow);
    // The file's run helper, given the prepared object itself (parsing again would make a new one).
    const { result, events } = await run(chain, { topic: 'otters' }, { flow });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'Otters hold hands.' }] });
    expect(events.filter((e) => e.type === 'node.finished').map((e) => 'nodeId' in e && e.nodeId)).toEqual([
      'input',
      'ask',
      'answer',
      'result',
    ]);
    expect(server.requests[0]?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Tell me about otters.' },
    ]);

    const broken = FlowSchema.parse({
      ...chain,
      edges: [
        ...(chain.edges ?? []),
        { id: 'back', source: 'answer', sourcePort: 'out', target: 'ask', targetPort: 'in' },
      ],
    });
    expect(() => prepareFlow(broken)).not.toThrow();
    await expect(run(chain, { topic: 'otters' }, { flow: broken })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('makes one plain request when nobody watches the tokens (CLI, MCP): no token events', async () => {
    server.reply = () => ({ chunks: ['Otters ', 'hold ', 'hands.'] });
    const { result, events } = await run(chain, { topic: 'otters' });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'Otters hold hands.' }] });
    expect(server.requests[0]?.body.stream).toBeFalsy();
    expect(events.some((e) => e.type === 'node.token')).toBe(false);
  });

  it('runs input → template → llm → output and sends the exact prompt, streaming the answer to a watcher', async () => {
    server.reply = () => ({ chunks: ['Otters ', 'hold ', 'hands.'] });
    const { result, events } = await run(chain, { topic: 'otters' }, { streamTokens: true });
    expect(result).toMatchObject({
      status: 'succeeded',
      output: { kind: 'return_values', values: [{ id: 'r0', text: 'Otters hold hands.' }] },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'test-model',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me about otters.' },
      ],
    });
    const finished = events.find((e) => e.type === 'node.finished' && e.nodeId === 'answer');
    expect(finished).toMatchObject({
      attempts: 1,
      input: { system: 'Be brief.', prompt: 'Tell me about otters.' },
      usage: { inputTokens: 10, outputTokens: 5 },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me about otters.' },
        { role: 'assistant', content: 'Otters hold hands.' },
      ],
    });
    expect(events.filter((e) => e.type === 'node.token').map((e) => (e.type === 'node.token' ? e.text : ''))).toEqual([
      'Otters ',
      'hold ',
      'hands.',
    ]);
    expect(events.map((e) => e.type).filter((t) => t !== 'node.token')).toEqual([
      'run.started',
      ...['node.started', 'node.finished'].flatMap((t) => [t]),
      'node.started',
      'node.finished',
      'node.started',
      'node.finished',
      'node.started',
      'node.finished',
      'run.finished',
    ]);
  });

  it('sends a system-only step (seed 003 CustomLLM) as the system message, as its runtime does', async () => {
    const flow = buildFlow({
      nodes: [llm('step', '', { system: 'Summarize the news.' }), output('{{nodes.step.output}}')],
      edges: ['step>result'],
    });
    await run(flow);
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'system', content: 'Summarize the news.' }]);
  });

  it('works with a provider that does not stream', async () => {
    server.reply = () => ({ content: 'plain answer' });
    const { result } = await run(chain, { topic: 'x' }, { llm: testLlm(server.url, { streaming: false }) });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'plain answer' }] });
    expect(server.requests[0]?.body.stream).toBeFalsy();
  });

  it('runs independent branches concurrently', async () => {
    server.reply = () => ({ content: 'x', delayMs: 200 });
    const nodes = [input()];
    const edges: string[] = [];
    for (const b of ['a', 'b', 'c']) {
      nodes.push(llm(`${b}1`, 'one'), llm(`${b}2`, 'two'), llm(`${b}3`, 'three'));
      edges.push(`input>${b}1`, `${b}1>${b}2`, `${b}2>${b}3`, `${b}3>result`);
    }
    nodes.push(output('{{nodes.a3.output}}{{nodes.b3.output}}{{nodes.c3.output}}'));
    const { result } = await run(buildFlow({ nodes, edges }));
    expect(result.status).toBe('succeeded');
    expect(server.requests).toHaveLength(9);
    expect(result.durationMs).toBeGreaterThanOrEqual(590);
    // The three branches' first calls all went out before any second one: the branches ran side
    // by side. (A wall-time bound of 1,200 ms said this on a quiet machine and failed at 1,271 ms
    // in a loaded CI run; one branch after another takes at least 1,800 ms.)
    const prompts = server.requests.map((r) => r.body.messages?.at(-1)?.content);
    expect(prompts).toEqual(['one', 'one', 'one', 'two', 'two', 'two', 'three', 'three', 'three']);
    expect(result.durationMs).toBeLessThan(1800);
  });

  it('skips the branch a condition does not take and runs the join', async () => {
    const flow = buildFlow({
      parameters: [{ name: 'score', type: 'number' }],
      nodes: [
        input(),
        {
          id: 'check',
          type: 'condition',
          config: { rules: [{ value: '{{inputs.score}}', operator: 'greater_than', operand: 50 }] },
        },
        template('pass', 'passed'),
        template('fail', 'failed'),
        template('after_fail', 'then {{nodes.fail.output}}'),
        output('[{{nodes.pass.output}}][{{nodes.after_fail.output}}]'),
      ],
      edges: [
        'input>check',
        'check.true>pass',
        'check.false>fail',
        'fail>after_fail',
        'pass>result',
        'after_fail>result',
      ],
    });
    const high = await run(flow, { score: 80 });
    expect(high.result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: '[passed][]' }] });
    expect(high.statusOf('fail')).toEqual(['skipped']);
    expect(high.statusOf('after_fail')).toEqual(['skipped']);
    expect(high.statusOf('result')).toEqual(['started', 'finished']);
    const low = await run(flow, { score: 10 });
    expect(low.result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: '[][then failed]' }] });
    expect(low.statusOf('pass')).toEqual(['skipped']);
  });

  it('routes on a JSONPath into a JSON answer', async () => {
    server.reply = () => ({ content: '```json\n{"urgency": "high", "category": "bug"}\n```' });
    const flow = buildFlow({
      nodes: [
        llm('classify', 'classify', {
          outputFormat: 'json',
          jsonSchema: { type: 'object', required: ['urgency'], properties: { urgency: { enum: ['low', 'high'] } } },
        }),
        {
          id: 'urgent',
          type: 'condition',
          config: {
            rules: [{ value: '{{nodes.classify.output}}', path: '$.urgency', operator: 'equals', operand: 'high' }],
          },
        },
        template('escalate', 'ESCALATE {{nodes.classify.output.category}}'),
        output('{{nodes.escalate.output}}'),
      ],
      edges: ['classify>urgent', 'urgent.true>escalate', 'escalate>result'],
    });
    const { result } = await run(flow);
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'ESCALATE bug' }] });
    expect(server.requests[0]?.body.messages?.[0]?.content).toContain('It must match this JSON Schema');
  });

  it('fails a JSON node whose answer is not valid JSON or breaks the schema', async () => {
    const flow = buildFlow({
      nodes: [
        llm('classify', 'classify', { outputFormat: 'json', jsonSchema: { type: 'object', required: ['urgency'] } }),
        output('{{nodes.classify.output}}'),
      ],
      edges: ['classify>result'],
    });
    server.reply = () => ({ content: 'Sure! Here it is: {urgency: high}' });
    const prose = await run(flow);
    expect(prose.result).toMatchObject({
      status: 'failed',
      error: { code: 'INVALID_MODEL_OUTPUT', nodeId: 'classify' },
    });
    expect(prose.result.error?.message).toContain("the model's answer is not valid JSON");
    server.reply = () => ({ content: '{"category": "bug"}' });
    const wrong = await run(flow);
    expect(wrong.result.error).toMatchObject({
      code: 'INVALID_MODEL_OUTPUT',
      message: expect.stringContaining("must have required property 'urgency'"),
    });
  });

  it('retries 429 and 500 with backoff, but not 400', async () => {
    const flow = buildFlow({
      nodes: [llm('answer', 'hi', {}, { maxAttempts: 3 }), output('{{nodes.answer.output}}')],
      edges: ['answer>result'],
    });
    server.reply = (_, i) => (i === 0 ? { status: 429 } : i === 1 ? { status: 500 } : { content: 'third time' });
    const retried = await run(flow);
    expect(retried.result.status).toBe('succeeded');
    expect(retried.statusOf('answer')).toEqual(['started', 'failed', 'started', 'failed', 'started', 'finished']);
    const failures = retried.events.filter((e) => e.type === 'node.failed');
    expect(failures.map((e) => (e.type === 'node.failed' ? [e.error.code, e.willRetry] : []))).toEqual([
      ['PROVIDER_RATE_LIMITED', true],
      ['PROVIDER_ERROR', true],
    ]);
    // The step record keeps why each retried attempt failed.
    const finished = retried.events.find((e) => e.type === 'node.finished' && e.nodeId === 'answer');
    expect(finished?.type === 'node.finished' && finished.retries?.map((r) => r.code)).toEqual([
      'PROVIDER_RATE_LIMITED',
      'PROVIDER_ERROR',
    ]);

    server.requests.length = 0;
    server.reply = () => ({ status: 400 });
    const bad = await run(flow);
    expect(bad.result).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_ERROR', nodeId: 'answer' } });
    expect(server.requests).toHaveLength(1);
  });

  it("lets a dozen nodes running at once wait out their retry backoff on the run's signal, with no leak warning", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `ask${i}`);
    const flow = buildFlow({
      nodes: [
        ...names.map((name) => llm(name, name, {}, { maxAttempts: 2 })),
        output(names.map((name) => `{{nodes.${name}.output}}`).join(',')),
      ],
      edges: names.map((name) => `${name}>result`),
    });
    // Each node's first request is refused; its retry is answered.
    const refused = new Set<string>();
    server.reply = (request) => {
      const prompt = JSON.stringify(request.body.messages?.at(-1)?.content);
      if (refused.has(prompt)) return { content: 'ok' };
      refused.add(prompt);
      return { status: 429 };
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { result } = await run(flow, {}, { concurrency: 12, retry: { baseDelayMs: 50, maxDelayMs: 50 } });
      expect(result.status).toBe('succeeded');
      expect(server.requests).toHaveLength(2 * names.length);
      // Node reports warnings on a later turn.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('fails clearly when the server answers with a malformed body', async () => {
    server.reply = () => ({ body: 'this is not JSON' });
    const { result } = await run(chain, { topic: 'x' }, { llm: testLlm(server.url, { streaming: false }) });
    expect(result).toMatchObject({ status: 'partial', error: { code: 'PROVIDER_ERROR', nodeId: 'answer' } });
    expect(result.error?.message).toMatch(/^provider "test" (answered|failed)/);
  });

  it('continues down the error port when a node fails', async () => {
    server.reply = () => ({ status: 500 });
    const flow = buildFlow({
      nodes: [
        llm('answer', 'hi'),
        template('fallback', 'Sorry: {{nodes.answer.error.code}}'),
        output('{{nodes.answer.output}}{{nodes.fallback.output}}'),
      ],
      edges: ['answer>result', 'answer.error>fallback', 'fallback>result'],
    });
    const { result, statusOf } = await run(flow);
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'Sorry: PROVIDER_ERROR' }] });
    expect(statusOf('answer')).toEqual(['started', 'failed']);
  });

  it('keeps finished results and cancels the rest when a node fails (partial)', async () => {
    server.reply = (request) =>
      request.body.messages?.at(-1)?.content === 'slow' ? { content: 'late', delayMs: 2000 } : { status: 400 };
    const flow = buildFlow({
      nodes: [
        input(),
        template('first', 'done'),
        llm('slow', 'slow'),
        llm('broken', '{{nodes.first.output}}'),
        output('{{nodes.broken.output}}{{nodes.slow.output}}'),
      ],
      edges: ['input>first', 'input>slow', 'first>broken', 'broken>result', 'slow>result'],
    });
    const { result, statusOf } = await run(flow);
    expect(result).toMatchObject({ status: 'partial', error: { code: 'PROVIDER_ERROR', nodeId: 'broken' } });
    expect(statusOf('first')).toEqual(['started', 'finished']);
    expect(statusOf('slow')).toEqual(['started', 'cancelled']);
    // Never reached: recorded as skipped once the run has ended.
    expect(statusOf('result')).toEqual(['skipped']);
    expect(result.durationMs).toBeLessThan(1500);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests.find((r) => r.body.messages?.at(-1)?.content === 'slow')?.wasAborted).toBe(true);
  });

  it('times a node out and aborts its HTTP request', async () => {
    server.reply = () => ({ content: 'too late', delayMs: 3000 });
    const flow = buildFlow({
      nodes: [llm('answer', 'hi', {}, { timeoutMs: 200 }), output('x')],
      edges: ['answer>result'],
    });
    const { result } = await run(flow);
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'NODE_TIMEOUT', message: 'node "answer" took longer than 200 ms' },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests[0]?.wasAborted).toBe(true);
  });

  it('cancels a run and the in-flight request', async () => {
    server.reply = () => ({ content: 'never', delayMs: 5000 });
    const controller = new AbortController();
    const flow = buildFlow({ nodes: [llm('answer', 'hi'), output('x')], edges: ['answer>result'] });
    setTimeout(() => controller.abort(new FlowbenchError('CANCELLED', 'cancelled by the user')), 150);
    const { result, statusOf } = await run(flow, {}, { signal: controller.signal });
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    expect(statusOf('answer')).toEqual(['started', 'cancelled']);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests[0]?.wasAborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("listens to the caller's signal only while a node waits, and lets it go when the run ends", async () => {
    const controller = new AbortController();
    const listening = () => getEventListeners(controller.signal, 'abort').length;
    // A run that never waits ends within its turn, before any abort event could come: it never listens.
    const quick = buildFlow({ nodes: [template('t', 'x'), output('{{nodes.t.output}}')], edges: ['t>result'] });
    const duringQuick: number[] = [];
    const listeners = [() => void duringQuick.push(listening())];
    expect((await run(quick, {}, { signal: controller.signal, listeners })).result.status).toBe('succeeded');
    expect(new Set(duringQuick)).toEqual(new Set([0]));
    expect(listening()).toBe(0);

    let whileWaiting = -1;
    server.reply = () => {
      whileWaiting = listening();
      return { content: 'ok' };
    };
    const waits = buildFlow({
      nodes: [llm('answer', 'hi'), output('{{nodes.answer.output}}')],
      edges: ['answer>result'],
    });
    expect((await run(waits, {}, { signal: controller.signal })).result.status).toBe('succeeded');
    expect(whileWaiting).toBe(1);
    expect(listening()).toBe(0);
  });

  it('does not start a run whose signal was aborted before it began, and records the reason', async () => {
    const controller = new AbortController();
    controller.abort('changed my mind');
    const flow = buildFlow({ nodes: [llm('answer', 'hi'), output('x')], edges: ['answer>result'] });
    const { result, statusOf } = await run(flow, {}, { signal: controller.signal });
    expect(result).toMatchObject({
      status: 'cancelled',
      error: { code: 'CANCELLED', message: 'the run was cancelled: changed my mind' },
    });
    expect(statusOf('answer')).toEqual(['skipped']);
    expect(server.requests).toHaveLength(0);
  });

  it('ends the run at a stop node with its reason', async () => {
    const flow = buildFlow({
      parameters: [{ name: 'word', type: 'string' }],
      nodes: [
        input(),
        { id: 'halt', type: 'stop', config: { reason: 'Refused: {{inputs.word}}' } },
        template('never', 'x'),
      ],
      edges: ['input>halt', 'input>never'],
    });
    const { result } = await run(flow, { word: 'no' }, { concurrency: 1 });
    expect(result).toMatchObject({
      status: 'stopped',
      error: { code: 'STOPPED', message: 'Refused: no', nodeId: 'halt' },
    });
  });

  it('refuses missing and mistyped inputs, and invalid flows, before starting', async () => {
    const flow = buildFlow({
      parameters: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'integer' },
        { name: 'c', type: 'boolean', required: false },
      ],
      nodes: [input(), output('{{inputs.a}}')],
      edges: ['input>result'],
    });
    await expect(run(flow, {})).rejects.toMatchObject({
      code: 'MISSING_VARIABLES',
      message: 'missing required inputs: a, b',
      data: { missing: ['a', 'b'] },
    });
    await expect(run(flow, { a: 'x', b: 1.5, c: 'yes' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      data: {
        problems: [
          { parameter: 'b', message: 'input "b": expected an integer, got 1.5' },
          { parameter: 'c', message: 'input "c": expected true or false, got "yes"' },
        ],
      },
    });
    const broken = buildFlow({ nodes: [template('a', '{{nodes.ghost.output}}')], edges: [] });
    await expect(run(broken)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { problems: [expect.objectContaining({ code: 'UNRESOLVED_REFERENCE' })] },
    });
  });

  it('fails the node, not the process, when a provider drops the connection in the middle of a streamed answer', async () => {
    server.reply = () => ({ chunks: ['Otters ', 'hold ', 'hands.'], breakAfterChunks: 2 });
    const { result, events } = await run(chain, { topic: 'otters' }, { streamTokens: true });
    expect(result).toMatchObject({ status: 'partial', error: { code: 'PROVIDER_ERROR', nodeId: 'answer' } });
    expect(result.error?.message).toBe(
      'provider "test" answered 200, then reading its answer failed: aborted (ECONNRESET)',
    );
    // What came before the break was shown as it came.
    const tokens = events.filter((e) => e.type === 'node.token').map((e) => (e as { text: string }).text);
    expect(tokens.join('')).toBe('Otters hold ');
  });

  it('names the URL of an unreachable provider', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { result } = await run(chain, { topic: 'x' }, { llm: testLlm(url) });
    expect(result).toMatchObject({ status: 'partial', error: { code: 'PROVIDER_UNAVAILABLE', nodeId: 'answer' } });
    expect(result.error?.message).toMatch(new RegExp(`^cannot reach provider "test" at ${url}: .*ECONNREFUSED`));
  });
});
