import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowInput } from '../model/flow';
import { FlowSchema } from '../model/flow';
import type { RunEvent } from '../model/run';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { buildFlow, input, llm, output, template } from '../../tests/helpers/flow-builder';
import { testLlm } from '../../tests/helpers/llm';
import { startOpenAiServer, type OpenAiServer } from '../../tests/helpers/openai-server';
import { RunRecordBuilder } from '../model/run-record';
import { runFlow } from './run-flow';

let server: OpenAiServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(() => server.close());

const run = (flow: FlowInput, inputs: Record<string, unknown> = {}) => runWith(flow, inputs);

async function runWith(
  flow: FlowInput,
  inputs: Record<string, unknown>,
  options: Pick<Parameters<typeof runFlow>[0], 'usePins' | 'reuse'> = {},
) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    ...options,
    flow: FlowSchema.parse(flow),
    inputs,
    llm: testLlm(server.url),
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    listeners: [(e) => events.push(e)],
  });
  /** Each event of a node as `type@iteration`. */
  const trail = (id: string) =>
    events
      .filter((e) => 'nodeId' in e && e.nodeId === id)
      .map((e) => `${e.type.replace('node.', '')}@${('iteration' in e && e.iteration) || 1}`);
  return { result, events, trail };
}

const userText = (index: number) => server.requests[index]?.body.messages?.at(-1)?.content;
const problemsOf = (flow: FlowInput) => validateFlow(flow, { catalogue: nodeRegistry }).problems;

/** draft → review → approved? (condition); false goes back to draft, at most `passes` passes. */
function reviewLoop(passes: number): FlowInput {
  const flow = buildFlow({
    nodes: [
      input(),
      llm('draft', 'Write a slogan. Last review: {{nodes.review.output}}'),
      llm('review', 'Review: {{nodes.draft.output}}'),
      {
        id: 'approved',
        type: 'condition',
        config: { rules: [{ value: '{{nodes.review.output}}', operator: 'contains', operand: 'APPROVED' }] },
      },
      output('{{nodes.draft.output}}'),
    ],
    edges: ['input>draft', 'draft>review', 'review>approved', 'approved.true>result'],
  });
  flow.edges?.push({
    id: 'again',
    source: 'approved',
    sourcePort: 'false',
    target: 'draft',
    loop: { maxIterations: passes },
  });
  return flow;
}

describe('loops', () => {
  it('goes back until the review approves: each pass is an iteration, and what follows runs once on the last pass', async () => {
    let drafts = 0;
    server.reply = (request) => {
      const text = String(request.body.messages?.at(-1)?.content);
      if (text.startsWith('Write')) return { content: `slogan ${++drafts}` };
      return { content: text.includes('slogan 2') ? 'APPROVED' : 'too long' };
    };
    const { result, trail } = await run(reviewLoop(3));
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'slogan 2' }] });
    // The second draft sees the first pass's review.
    expect(userText(0)).toBe('Write a slogan. Last review: ');
    expect(userText(2)).toBe('Write a slogan. Last review: too long');
    expect(server.requests).toHaveLength(4);
    expect(trail('draft')).toEqual(['started@1', 'finished@1', 'started@2', 'finished@2']);
    expect(trail('approved')).toEqual(['started@1', 'finished@1', 'started@2', 'finished@2']);
    expect(trail('result')).toEqual(['started@1', 'finished@1']);
  });

  it('a run from a node after a loop reuses its last pass, from its first node runs it again, and from its middle is refused', async () => {
    let drafts = 0;
    server.reply = (request) => {
      const text = String(request.body.messages?.at(-1)?.content);
      if (text.startsWith('Write')) return { content: `slogan ${++drafts}` };
      return { content: /slogan [24]$/.test(text) ? 'APPROVED' : 'too long' };
    };
    const flow = reviewLoop(3);
    const first = await run(flow);
    const builder = new RunRecordBuilder({ flowName: 'loop', trigger: 'cli' });
    first.events.forEach((e) => builder.apply(e));
    const record = builder.record();
    const from = (fromNodeId: string) => ({
      reuse: { fromNodeId, runId: record.id, steps: new Map(record.steps.map((s) => [s.nodeId, s])) },
    });
    expect(server.requests).toHaveLength(4);

    // After the loop: nothing asked again, the loop as its last pass left it.
    const after = await runWith(flow, {}, from('result'));
    expect(after.result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'slogan 2' }] });
    expect(server.requests).toHaveLength(4);
    expect(after.trail('draft')).toEqual(['finished@1']);

    // From the loop's first node: its passes run again, from the first.
    const again = await runWith(flow, {}, from('draft'));
    expect(again.result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'slogan 4' }] });
    expect(again.trail('draft')).toEqual(['started@1', 'finished@1', 'started@2', 'finished@2']);
    expect(server.requests).toHaveLength(8);

    await expect(runWith(flow, {}, from('review'))).rejects.toMatchObject({
      code: 'REUSE_UNAVAILABLE',
      message:
        'node "review" is inside the loop back from "approved" to "draft": run from "draft", where each pass starts, to run the loop again',
    });
    expect(server.requests).toHaveLength(8);
  });

  it('fails the loop source with LOOP_LIMIT when it wants one more pass than the edge allows', async () => {
    server.reply = () => ({ content: 'too long' });
    const { result, trail } = await run(reviewLoop(2));
    expect(result).toMatchObject({ status: 'partial', error: { code: 'LOOP_LIMIT', nodeId: 'approved' } });
    expect(result.error?.message).toBe(
      'node "approved" went back to "draft" after pass 2, the most its loop edge "again" allows',
    );
    expect(server.requests).toHaveLength(4);
    expect(trail('approved')).toEqual(['started@1', 'finished@1', 'started@2', 'finished@2', 'failed@2']);
    expect(trail('result')).toEqual(['skipped@1']);
  });

  it('is refused by validation unless the back edge is a loop, and a loop edge must go back', () => {
    const plain = reviewLoop(3);
    delete plain.edges?.at(-1)?.loop;
    expect(problemsOf(plain).find((p) => p.code === 'CIRCULAR_DEPENDENCY')?.message).toContain(
      'make the edge that goes back a loop with an iteration limit',
    );
    expect(problemsOf(reviewLoop(3)).filter((p) => p.severity === 'error')).toEqual([]);
    const forward = reviewLoop(3);
    forward.edges?.push({
      id: 'ahead',
      source: 'draft',
      sourcePort: 'out',
      target: 'result',
      loop: { maxIterations: 2 },
    });
    expect(problemsOf(forward)).toContainEqual(
      expect.objectContaining({ code: 'LOOP_NOT_BACK', edgeId: 'ahead', severity: 'error' }),
    );
  });
});

describe('when a node fails', () => {
  const failing = (onError?: 'continue' | 'fail', withErrorEdge = true) =>
    buildFlow({
      nodes: [
        input(),
        llm('ask', 'question', {}, onError ? { onError } : {}),
        ...(withErrorEdge
          ? [
              template('apologise', 'sorry: {{nodes.ask.error.message}}'),
              output('{{nodes.ask.output}}', '{{nodes.apologise.output}}'),
            ]
          : [output('{{nodes.ask.output}}')]),
      ],
      edges: ['input>ask', 'ask>result', ...(withErrorEdge ? ['ask.error>apologise', 'apologise>result'] : [])],
    });

  beforeEach(() => {
    server.reply = () => ({ status: 400 });
  });

  it('runs the error edge and then fails the run with onError fail', async () => {
    const { result, trail } = await run(failing('fail'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_ERROR', nodeId: 'ask' } });
    expect(trail('apologise')).toEqual(['started@1', 'finished@1']);
    expect(result.output?.kind).toBe('return_values');
  });

  it('runs the error edge and succeeds by default', async () => {
    const { result } = await run(failing());
    expect(result.status).toBe('succeeded');
  });

  it('with onError continue and no error edge, skips what follows and ends without failing', async () => {
    const { result, trail } = await run(failing('continue', false));
    expect(result.status).toBe('succeeded');
    expect(trail('result')).toEqual(['skipped@1']);
  });

  it('fails the run at once without an error edge by default', async () => {
    const { result } = await run(failing(undefined, false));
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'ask' } });
  });
});

describe('a flow with an input node', () => {
  it('runs only what the input leads to; validation names the rest', async () => {
    const flow = buildFlow({
      nodes: [input(), template('said', 'hello'), template('orphan', 'never'), output('{{nodes.said.output}}')],
      edges: ['input>said', 'said>result'],
    });
    const { result, trail } = await run(flow);
    expect(result.status).toBe('succeeded');
    expect(trail('orphan')).toEqual(['skipped@1']);
    expect(problemsOf(flow)).toContainEqual(
      expect.objectContaining({ code: 'UNREACHABLE_NODE', nodeId: 'orphan', severity: 'warning' }),
    );
  });
});

/** input → clean (template) → summarise (llm) → result, with `off` deactivated. */
function chain(...off: string[]): FlowInput {
  const flow = buildFlow({
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      input(),
      template('clean', 'CLEAN {{inputs.text}}'),
      llm('summarise', 'Summarise {{nodes.clean.output}}'),
      output('{{nodes.summarise.output}}'),
    ],
    edges: ['input>clean', 'clean>summarise', 'summarise>result'],
  });
  for (const node of flow.nodes ?? []) if (off.includes(node.id)) node.disabled = true;
  return flow;
}

describe('a deactivated node', () => {
  it('is passed over: it hands on what came into it and the model is never called', async () => {
    server.reply = () => ({ content: 'SUMMARY' });
    const { result, events } = await run(chain('summarise'), { text: 'hello' });
    expect(result.status).toBe('succeeded');
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'CLEAN hello' }] });
    expect(server.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'node.finished' && e.nodeId === 'summarise')).toMatchObject({
      attempts: 0,
      output: 'CLEAN hello',
      passedOver: true,
    });
    // Active again, it runs.
    const again = await run(chain(), { text: 'hello' });
    expect(again.result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'SUMMARY' }] });
  });

  it('a deactivated condition goes on along its true branch only', async () => {
    const flow = buildFlow({
      nodes: [
        input(),
        { id: 'check', type: 'condition', config: { rules: [{ value: 'no', operator: 'equals', operand: 'yes' }] } },
        template('yes', 'took true'),
        template('no', 'took false'),
        output('{{nodes.yes.output}}{{nodes.no.output}}'),
      ],
      edges: ['input>check', 'check.true>yes', 'check.false>no', 'yes>result', 'no>result'],
    });
    (flow.nodes?.find((n) => n.id === 'check') as { disabled?: true }).disabled = true;
    const { result, events } = await run(flow);
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'took true' }] });
    expect(events.some((e) => e.type === 'node.skipped' && e.nodeId === 'no')).toBe(true);
  });

  it('is said as a warning; its own errors become warnings; an input or output node cannot be deactivated', () => {
    const flow = chain('summarise');
    const summarise = flow.nodes?.find((n) => n.id === 'summarise');
    if (summarise?.config) summarise.config.prompt = 'Summarise {{nodes.nowhere.output}}';
    expect(problemsOf(flow)).toEqual([
      expect.objectContaining({
        code: 'UNRESOLVED_REFERENCE',
        severity: 'warning',
        message: expect.stringContaining('(the node is deactivated: runs pass over it)'),
      }),
      expect.objectContaining({ code: 'DEACTIVATED_NODE', severity: 'warning', nodeId: 'summarise' }),
    ]);
    expect(problemsOf(chain('input', 'result'))).toEqual([
      expect.objectContaining({ code: 'DEACTIVATED_NODE', severity: 'error', nodeId: 'input' }),
      expect.objectContaining({ code: 'DEACTIVATED_NODE', severity: 'error', nodeId: 'result' }),
    ]);
  });
});

describe('a pinned output (n8n’s pinned data)', () => {
  const pinned = () => {
    const flow = chain();
    const summarise = flow.nodes?.find((n) => n.id === 'summarise');
    if (summarise) summarise.pin = { output: 'PINNED SUMMARY' };
    return flow;
  };

  it('stands in for its node in a run a person starts: the model is never asked', async () => {
    server.reply = () => ({ content: 'SUMMARY' });
    const { result, events } = await runWith(pinned(), { text: 'hello' }, { usePins: true });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'PINNED SUMMARY' }] });
    expect(server.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'node.finished' && e.nodeId === 'summarise')).toMatchObject({
      attempts: 0,
      pinned: true,
    });
  });

  it('is not used otherwise (a client’s call, a test case): the node runs', async () => {
    server.reply = () => ({ content: 'SUMMARY' });
    const { result } = await run(pinned(), { text: 'hello' });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'SUMMARY' }] });
    expect(server.requests).toHaveLength(1);
  });

  it('inside a loop, stands in on every pass, each step with its pass', async () => {
    let reviews = 0;
    server.reply = () => ({ content: ++reviews === 2 ? 'APPROVED' : 'too long' });
    const flow = reviewLoop(3);
    const draft = flow.nodes?.find((n) => n.id === 'draft');
    if (draft) draft.pin = { output: 'pinned slogan' };
    const { result, trail } = await runWith(flow, {}, { usePins: true });
    expect(result.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: 'pinned slogan' }] });
    // Only the reviews asked the model; the pinned draft finished once per pass, without starting.
    expect(server.requests).toHaveLength(2);
    expect(trail('draft')).toEqual(['finished@1', 'finished@2']);
  });

  it('that is not what its node gives (its JSON schema) refuses the run, naming the node; one that is runs', async () => {
    server.reply = () => ({ content: '{"urgency":"high"}' });
    const typed = (output: unknown) => {
      const flow = chain();
      const summarise = flow.nodes?.find((n) => n.id === 'summarise');
      if (!summarise) throw new Error('no summarise node');
      summarise.config = {
        ...summarise.config,
        outputFormat: 'json',
        jsonSchema: {
          type: 'object',
          properties: { urgency: { enum: ['low', 'high'] } },
          required: ['urgency'],
        },
      };
      summarise.pin = { output: output as never };
      return flow;
    };
    const refused = await runWith(typed({ urgency: 'soon' }), { text: 'hi' }, { usePins: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'VALIDATION_ERROR',
      data: {
        problems: [
          expect.objectContaining({
            code: 'PINNED_OUTPUT',
            severity: 'error',
            nodeId: 'summarise',
            field: 'pin',
            message: expect.stringContaining('/urgency must be equal to one of the allowed values'),
          }),
        ],
      },
    });
    expect(server.requests).toHaveLength(0);
    // Text pinned where the node gives JSON is said the same way.
    await expect(runWith(typed('high'), { text: 'hi' }, { usePins: true })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    // Runs that do not take pins run the node as before; a pin that fits is taken.
    expect((await runWith(typed('high'), { text: 'hi' })).result.status).toBe('succeeded');
    const fits = await runWith(typed({ urgency: 'low' }), { text: 'hi' }, { usePins: true });
    expect(fits.events.find((e) => e.type === 'node.finished' && e.nodeId === 'summarise')).toMatchObject({
      pinned: true,
      output: { urgency: 'low' },
    });
  });

  it('is said as a warning; an input or output node cannot be pinned', () => {
    expect(problemsOf(pinned())).toEqual([
      expect.objectContaining({ code: 'PINNED_OUTPUT', severity: 'warning', nodeId: 'summarise' }),
    ]);
    const flow = chain();
    const result = flow.nodes?.find((n) => n.id === 'result');
    if (result) result.pin = { output: 'x' };
    expect(problemsOf(flow)).toEqual([expect.objectContaining({ code: 'PINNED_OUTPUT', severity: 'error' })]);
  });
});
