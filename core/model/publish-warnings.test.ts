import { describe, expect, it } from 'vitest';
import { buildFlow, input, llm, output } from '../../tests/helpers/flow-builder';
import { nodeRegistry } from '../nodes/registry';
import { FlowSchema } from './flow';
import { publishWarnings } from './publish-warnings';

describe('publishWarnings (issue 17, point 5)', () => {
  it('names what a client would suffer from: no tool description, an empty prompt, an empty return value', () => {
    const flow = FlowSchema.parse(
      buildFlow({ nodes: [input(), llm('answer', ''), output('{{nodes.answer.output}}', ' ')], edges: [] }),
    );
    expect(publishWarnings(flow, nodeRegistry)).toEqual([
      { message: expect.stringContaining('the tool has no description') },
      {
        message: 'node "answer": its prompt and system prompt are empty: the model is sent no question',
        nodeId: 'answer',
      },
      { message: 'node "result": return value 2 is empty: clients get an empty text', nodeId: 'result' },
    ]);
  });

  it('says nothing about a flow a client can use, a model step defined by its system prompt alone included', () => {
    const systemOnly = { ...llm('title', ''), config: { ...llm('title', '').config, system: 'Write a title.' } };
    const flow = FlowSchema.parse({
      ...buildFlow({
        nodes: [input(), llm('answer', 'Hi'), systemOnly, output('{{nodes.answer.output}} {{nodes.title.output}}')],
        edges: [],
      }),
      tool: { name: 'greet', description: 'Greets.' },
    });
    expect(publishWarnings(flow, nodeRegistry)).toEqual([]);
  });
});
