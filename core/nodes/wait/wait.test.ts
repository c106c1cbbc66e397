import { describe, expect, it } from 'vitest';
import { runFlow } from '../../engine/run-flow';
import { FlowbenchError } from '../../model/errors';
import { FlowSchema } from '../../model/flow';
import type { LlmPort } from '../../model/llm';
import type { RunEvent } from '../../model/run';
import { validateFlow } from '../../model/validate';
import { buildFlow, input, output } from '../../../tests/helpers/flow-builder';
import { nodeRegistry } from '../registry';
import { waitNode } from './definition';

const noModel: LlmPort = {
  generate: () => Promise.reject(new Error('no model here')),
  runAgent: () => Promise.reject(new Error('no model here')),
};

/** input → wait → output, the wait handing on the input `job`. */
function waitFlow(amount: number, unit = 'seconds') {
  return FlowSchema.parse(
    buildFlow({
      parameters: [{ name: 'job', type: 'object' }],
      nodes: [
        input(),
        { id: 'pause', type: 'wait', config: { amount, unit, value: '{{inputs.job}}' } },
        {
          id: 'result',
          type: 'output',
          config: { mode: 'structured', fields: [{ name: 'job', value: '{{nodes.pause.output}}' }] },
        },
      ],
      edges: ['input>pause', 'pause>result'],
    }),
  );
}

describe('wait node', () => {
  it('starts at 5 seconds, passing on what a connected node fills in', () => {
    expect(waitNode.defaults()).toEqual({ amount: 5, unit: 'seconds', value: '' });
    expect(waitNode.fillEmptyText?.(waitNode.defaults(), '{{nodes.poll.output}}')).toEqual({
      amount: 5,
      unit: 'seconds',
      value: '{{nodes.poll.output}}',
    });
    expect(waitNode.summary({ amount: 1, unit: 'minutes', value: '' })).toBe('waits 1 minute');
    expect(waitNode.summary({ amount: 1.5, unit: 'hours', value: '' })).toBe('waits 1.5 hours');
  });

  it('waits its time, then gives the value it passes on (a lone reference keeps the JSON value)', async () => {
    const events: RunEvent[] = [];
    const started = performance.now();
    const result = await runFlow({
      flow: waitFlow(0.3),
      inputs: { job: { id: 'j1', status: 'running' } },
      llm: noModel,
      listeners: [(event) => events.push(event)],
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(result).toMatchObject({ status: 'succeeded', output: { data: { job: { id: 'j1', status: 'running' } } } });
    const finished = events.find((e) => e.type === 'node.finished' && e.nodeId === 'pause');
    expect(finished).toMatchObject({ output: { id: 'j1', status: 'running' } });
    expect((finished as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(290);
  });

  it('is not cut by the run’s usual node time limit, and ends at once when the run is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new FlowbenchError('CANCELLED', 'cancelled by the user')), 200);
    const started = performance.now();
    const result = await runFlow({
      flow: waitFlow(2, 'hours'),
      inputs: { job: {} },
      llm: noModel,
      // A node's usual limit, far shorter than the wait: the wait keeps its own.
      defaultNodeTimeoutMs: 50,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('fails NODE_TIMEOUT when its node sets a time limit shorter than the wait', async () => {
    const flow = waitFlow(5);
    const pause = flow.nodes.find((n) => n.id === 'pause');
    if (pause) pause.timeoutMs = 100;
    const result = await runFlow({ flow, inputs: { job: {} }, llm: noModel });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'NODE_TIMEOUT', nodeId: 'pause' } });
  });

  it('refuses a negative wait and one longer than 24 hours, saying which', () => {
    const problems = (amount: number, unit: string) =>
      validateFlow(
        buildFlow({
          nodes: [{ id: 'pause', type: 'wait', config: { amount, unit } }, output('x')],
          edges: ['pause>result'],
        }),
        { catalogue: nodeRegistry },
      ).problems.map((p) => `${p.nodeId} ${p.message}`);
    expect(problems(24, 'hours')).toEqual([]);
    expect(problems(25, 'hours').join('\n')).toMatch(/pause .*at most 24 hours/);
    expect(problems(1441, 'minutes').join('\n')).toMatch(/pause .*at most 24 hours/);
    expect(problems(-1, 'seconds').join('\n')).toMatch(/pause .*cannot be negative/);
    expect(problems(3, 'days').join('\n')).toMatch(/pause .*unit/);
  });
});
