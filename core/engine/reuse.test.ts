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

async function run(inputs: Record<string, unknown>, reuse?: Parameters<typeof runFlow>[0]['reuse']) {
  const events: RunEvent[] = [];
  const builder = new RunRecordBuilder({ flowName: flow.name, trigger: 'cli' });
  const outcome = await runFlow({
    flow,
    inputs,
    llm: noLlm,
    listeners: [(e) => events.push(e), (e) => builder.apply(e)],
    ...(reuse ? { reuse } : {}),
  });
  return { outcome, events, record: builder.record() };
}

describe('a run from a node', () => {
  it('runs the node and what depends on it; the rest settle as the earlier run left them, condition ports included', async () => {
    const earlier = await run({ score: 80 });
    const steps = new Map(earlier.record.steps.map((s) => [s.nodeId, s]));
    // Different inputs: the reused nodes keep the earlier outputs, the nodes that run see the new inputs.
    const again = await run({ score: 90 }, { fromNodeId: 'shout', runId: earlier.record.id, steps });
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
    await expect(run({ score: 10 }, { fromNodeId: 'shout', runId: 'r1', steps })).resolves.toMatchObject({
      // `pass` was skipped in the earlier run, so nothing reaches `shout` now either.
      outcome: { status: 'succeeded', output: { values: [{ text: '[][failed]' }] } },
    });
    const partial = new Map([...steps].filter(([id]) => id !== 'check'));
    await expect(run({ score: 10 }, { fromNodeId: 'pass', runId: 'r1', steps: partial })).rejects.toMatchObject({
      code: 'REUSE_UNAVAILABLE',
      message:
        'node "check" (upstream of "pass") has no step in run r1: run the whole flow, or pick a run where it succeeded',
    });
    await expect(run({ score: 10 }, { fromNodeId: 'ghost', runId: 'r1', steps })).rejects.toMatchObject({
      code: 'NODE_NOT_FOUND',
    });
  });
});
