import { describe, expect, it } from 'vitest';
import { FlowSchema, type Flow } from '../model/flow';
import type { LlmPort } from '../model/llm';
import type { RunEvent } from '../model/run';
import { RunRecordBuilder } from '../model/run-record';
import { buildFlow, input, output, template } from '../../tests/helpers/flow-builder';
import { runFlow } from './run-flow';

// No node here calls a model: a run that reached one would be a bug.
const noLlm = {} as LlmPort;

const flow: Flow = FlowSchema.parse(
  buildFlow({
    parameters: [{ name: 'score', type: 'number' }],
    nodes: [
      input(),
      {
        id: 'check',
        type: 'condition',
        config: { rules: [{ value: '{{inputs.score}}', operator: 'greater_than', operand: 50 }] },
      },
      template('pass', 'passed {{inputs.score}}'),
      template('fail', 'failed'),
      template('shout', '{{nodes.pass.output}}!'),
      output('[{{nodes.shout.output}}][{{nodes.fail.output}}]'),
    ],
    edges: ['input>check', 'check.true>pass', 'check.false>fail', 'pass>shout', 'shout>result', 'fail>result'],
  }),
);

type PartialRun = Pick<Parameters<typeof runFlow>[0], 'reuse' | 'toNodeId'>;

async function run(inputs: Record<string, unknown>, partial: PartialRun = {}) {
  const events: RunEvent[] = [];
  const builder = new RunRecordBuilder({ flowName: flow.name, trigger: 'cli' });
  const outcome = await runFlow({
    flow,
    inputs,
    llm: noLlm,
    listeners: [(e) => events.push(e), (e) => builder.apply(e)],
    ...partial,
  });
  return { outcome, events, record: builder.record() };
}

describe('a run from a node', () => {
  it('runs the node and what depends on it; the rest settle as the earlier run left them, condition ports included', async () => {
    const earlier = await run({ score: 80 });
    const steps = new Map(earlier.record.steps.map((s) => [s.nodeId, s]));
    // Different inputs: the reused nodes keep the earlier outputs, the nodes that run see the new inputs.
    const again = await run({ score: 90 }, { reuse: { fromNodeId: 'shout', runId: earlier.record.id, steps } });
    expect(again.outcome.status).toBe('succeeded');
    expect(again.outcome.output).toEqual({ kind: 'return_values', values: [{ id: 'r0', text: '[passed 80!][]' }] });
    const started = again.events.filter((e) => e.type === 'node.started').map((e) => 'nodeId' in e && e.nodeId);
    expect(started).toEqual(['shout', 'result']);
    expect(again.record.reuse).toEqual({
      fromNodeId: 'shout',
      runId: earlier.record.id,
      nodeIds: ['input', 'check', 'pass'],
    });
    expect(again.record.steps.find((s) => s.nodeId === 'fail')?.status).toBe('skipped');
    const reused = again.events.find((e) => e.type === 'node.finished' && e.nodeId === 'pass');
    expect(reused).toMatchObject({ reusedFrom: earlier.record.id, output: 'passed 80' });
  });

  it('refuses a start whose upstream the earlier run never reached, and a node that does not exist', async () => {
    const earlier = await run({ score: 10 });
    const steps = new Map(earlier.record.steps.map((s) => [s.nodeId, s]));
    await expect(run({ score: 10 }, { reuse: { fromNodeId: 'shout', runId: 'r1', steps } })).resolves.toMatchObject({
      // `pass` was skipped in the earlier run, so nothing reaches `shout` now either.
      outcome: { status: 'succeeded', output: { values: [{ text: '[][failed]' }] } },
    });
    const partial = new Map([...steps].filter(([id]) => id !== 'check'));
    await expect(
      run({ score: 10 }, { reuse: { fromNodeId: 'pass', runId: 'r1', steps: partial } }),
    ).rejects.toMatchObject({
      code: 'REUSE_UNAVAILABLE',
      message:
        'node "check" (upstream of "pass") has no step in run r1: run the whole flow, or pick a run where it succeeded',
    });
    await expect(run({ score: 10 }, { reuse: { fromNodeId: 'ghost', runId: 'r1', steps } })).rejects.toMatchObject({
      code: 'NODE_NOT_FOUND',
    });
  });
});

describe('a run to a node (n8n’s Execute step)', () => {
  it('runs the node and the nodes it needs; what follows it, the output node included, is skipped', async () => {
    const { outcome, events, record } = await run({ score: 80 }, { toNodeId: 'pass' });
    expect(outcome.status).toBe('succeeded');
    expect(outcome.output).toBeUndefined();
    const started = events.filter((e) => e.type === 'node.started').map((e) => 'nodeId' in e && e.nodeId);
    expect(started).toEqual(['input', 'check', 'pass']);
    expect(record.toNodeId).toBe('pass');
    expect(record.steps.find((s) => s.nodeId === 'pass')?.output).toBe('passed 80');
    for (const id of ['fail', 'shout', 'result'])
      expect(record.steps.find((s) => s.nodeId === id)?.status).toBe('skipped');
    await expect(run({ score: 80 }, { toNodeId: 'ghost' })).rejects.toMatchObject({ code: 'NODE_NOT_FOUND' });
  });

  it('needs only its part of the flow set up: a node after it with no tool chosen blocks a whole run, not this one', async () => {
    const halfBuilt = FlowSchema.parse({
      ...flow,
      nodes: [...flow.nodes, { id: 'notify', type: 'mcp_tool', config: {} }],
      edges: [...flow.edges, { id: 'e-notify', source: 'shout', target: 'notify' }],
    });
    const runOf = (toNodeId?: string) =>
      runFlow({ flow: halfBuilt, inputs: { score: 80 }, llm: noLlm, ...(toNodeId ? { toNodeId } : {}) });
    await expect(runOf()).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { problems: [expect.objectContaining({ code: 'MISSING_TOOL', nodeId: 'notify' })] },
    });
    await expect(runOf('shout')).resolves.toMatchObject({ status: 'succeeded' });
    await expect(runOf('notify')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('with a run from a node as well: the nodes from the one to the other run, the rest reused or skipped', async () => {
    const earlier = await run({ score: 80 });
    const steps = new Map(earlier.record.steps.map((s) => [s.nodeId, s]));
    const { events } = await run(
      { score: 80 },
      { reuse: { fromNodeId: 'pass', runId: earlier.record.id, steps }, toNodeId: 'shout' },
    );
    const started = events.filter((e) => e.type === 'node.started').map((e) => 'nodeId' in e && e.nodeId);
    expect(started).toEqual(['pass', 'shout']);
  });
});
