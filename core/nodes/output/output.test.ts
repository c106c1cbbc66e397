import { describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { outputNode } from './definition';

describe('output node', () => {
  it('defaults to one empty return value', () => {
    expect(outputNode.configSchema.parse(outputNode.defaults())).toEqual({
      mode: 'return_values',
      returnValues: [{ id: 'result', text: '' }],
      fields: [],
    });
  });

  it('says on its card what it returns, and that there is nothing yet', () => {
    const fresh = outputNode.configSchema.parse(outputNode.defaults());
    expect(outputNode.summary(fresh)).toBe('no return value yet');
    expect(outputNode.summary({ ...fresh, returnValues: [{ id: 'r', text: 'Hi {{inputs.name}}' }] })).toBe(
      'Hi {{inputs.name}}',
    );
    expect(outputNode.summary({ ...fresh, mode: 'structured' })).toBe('no fields yet');
    expect(
      outputNode.summary({
        ...fresh,
        mode: 'structured',
        fields: [{ name: 'title', value: 'x', type: 'string', description: '' }],
      }),
    ).toBe('{ title }');
  });

  it('renders its return values in order', async () => {
    const ctx = nodeContext({ outputs: { answer: 'Otters hold hands.', title: 'Otters' } });
    const config = outputNode.configSchema.parse({
      returnValues: [
        { id: 'title', text: '# {{nodes.title.output}}' },
        { id: 'body', text: '{{nodes.answer.output}}' },
      ],
    });
    expect(await outputNode.execute?.(ctx, config)).toEqual({
      kind: 'output',
      output: {
        kind: 'return_values',
        values: [
          { id: 'title', text: '# Otters' },
          { id: 'body', text: 'Otters hold hands.' },
        ],
      },
    });
  });

  it('types structured fields: numbers and JSON rendered as text become values again', async () => {
    const ctx = nodeContext({ outputs: { score: '42', tags: '["a","b"]', raw: { deep: true } } });
    const config = outputNode.configSchema.parse({
      mode: 'structured',
      fields: [
        { name: 'score', value: '{{nodes.score.output}}', type: 'number' },
        { name: 'tags', value: '{{nodes.tags.output}}', type: 'array' },
        { name: 'raw', value: '{{nodes.raw.output}}' },
      ],
    });
    expect(await outputNode.execute?.(ctx, config)).toEqual({
      kind: 'output',
      output: { kind: 'structured', data: { score: 42, tags: ['a', 'b'], raw: { deep: true } } },
    });
    expect(outputNode.resultFields?.(config)?.map((f) => f.name)).toEqual(['score', 'tags', 'raw']);
  });

  it("is the flow's result; only a structured one has result fields", () => {
    expect(outputNode).toMatchObject({ isResult: true, hasRunSettings: false });
    expect(outputNode.resultFields?.(outputNode.configSchema.parse(outputNode.defaults()))).toBeUndefined();
  });
});
