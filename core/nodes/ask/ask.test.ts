import { describe, expect, it } from 'vitest';
import { runFlow } from '../../engine/run-flow';
import { FlowSchema } from '../../model/flow';
import type { AskAnswer, AskRequest, HumanInputPort } from '../../model/human-input';
import { buildFlow, input } from '../../../tests/helpers/flow-builder';
import { nodeContext } from '../../../tests/helpers/node-context';
import { askNode, ASK_TIMEOUT_MS } from './definition';

/** A person who answers every question the same way, and remembers what was asked. */
function person(answer: AskAnswer): HumanInputPort & { asked: AskRequest[] } {
  const asked: AskRequest[] = [];
  return { asked, ask: (request) => (asked.push(request), Promise.resolve(answer)) };
}

const config = askNode.configSchema.parse({
  message: 'Ship {{inputs.version}}?',
  fields: [
    { name: 'ship', type: 'boolean' },
    { name: 'channel', type: 'enum', options: ['stable', 'beta'] },
    { name: 'note', required: false },
  ],
});

/** input → ask → output, as the engine runs it. */
const askingFlow = FlowSchema.parse(
  buildFlow({
    nodes: [input(), { id: 'confirm', type: 'ask', config: { message: 'Sure?' } }, { id: 'result', type: 'output' }],
    edges: ['input>confirm', 'confirm>result'],
  }),
);
const NO_MODEL = {
  generate: () => Promise.reject(new Error('no model')),
  runAgent: () => Promise.reject(new Error('no model')),
};

describe('ask node', () => {
  it('asks its rendered question with its fields, and outputs the answer', async () => {
    const human = person({ action: 'accept', content: { ship: true, channel: 'beta' } });
    const ctx = nodeContext({ inputs: { version: '2.1' }, human });
    expect(await askNode.execute?.(ctx, config)).toEqual({ kind: 'output', output: { ship: true, channel: 'beta' } });
    expect(human.asked).toEqual([
      { runId: 'run_under_test', nodeId: 'under_test', message: 'Ship 2.1?', fields: config.fields },
    ]);
  });

  it('refuses an answer that does not fit its fields, naming each problem', async () => {
    const human = person({ action: 'accept', content: { ship: 'yes', channel: 'nightly', extra: 1 } });
    await expect(askNode.execute?.(nodeContext({ inputs: { version: '2.1' }, human }), config)).rejects.toMatchObject({
      code: 'HUMAN_INPUT_INVALID',
      message: expect.stringMatching(
        /ship: expected yes or no; channel: expected one of "stable", "beta"; extra: the question has no such field/,
      ),
    });
  });

  it('fails HUMAN_INPUT_DECLINED naming the node when the person declines', async () => {
    const ctx = nodeContext({ inputs: { version: '2.1' }, human: person({ action: 'decline' }) });
    await expect(askNode.execute?.(ctx, config)).rejects.toMatchObject({
      code: 'HUMAN_INPUT_DECLINED',
      message: 'node "under_test": the person declined the question',
    });
  });

  it('fails a run HUMAN_INPUT_UNAVAILABLE naming the node where nobody can be asked', async () => {
    const events: { type: string; error?: { code: string; message: string } }[] = [];
    const outcome = await runFlow({
      flow: askingFlow,
      inputs: {},
      llm: NO_MODEL,
      listeners: [(event) => events.push(event)],
    });
    expect(outcome.status).toBe('failed');
    expect(events.find((e) => e.type === 'node.failed')?.error).toMatchObject({
      code: 'HUMAN_INPUT_UNAVAILABLE',
      message: 'node "confirm" asks a person for input, and nothing where this flow runs can ask one',
    });
  });

  it('waits for a person past the run’s default node time limit (its own default is 10 minutes)', async () => {
    const slowPerson: HumanInputPort = {
      ask: () =>
        new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { answer: 'yes' } }), 300)),
    };
    const outcome = await runFlow({
      flow: askingFlow,
      inputs: {},
      llm: NO_MODEL,
      human: slowPerson,
      defaultNodeTimeoutMs: 50,
    });
    expect(outcome.status).toBe('succeeded');
    expect(askNode.defaultTimeoutMs).toBe(ASK_TIMEOUT_MS);
  });

  it('warns about an empty question and refuses an enum field without options', () => {
    const problems = askNode.check?.(askNode.configSchema.parse({ fields: [{ name: 'pick', type: 'enum' }] })) ?? [];
    expect(problems.map((p) => [p.code, p.severity])).toEqual([
      ['EMPTY_QUESTION', 'warning'],
      ['NODE_SETUP', 'error'],
    ]);
  });
});
