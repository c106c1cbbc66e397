import { describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { templateNode } from './definition';

describe('template node', () => {
  it('defaults to an empty template', () => {
    expect(templateNode.defaults()).toEqual({ template: '' });
    expect(templateNode.configSchema.parse({})).toEqual({ template: '' });
  });

  it('renders inputs and upstream outputs, objects as JSON, missing values as nothing', async () => {
    const ctx = nodeContext({ inputs: { topic: 'otters' }, outputs: { facts: { count: 3 } } });
    const outcome = await templateNode.execute?.(ctx, {
      template:
        'About {{ inputs.topic }}: {{nodes.facts.output}} / {{nodes.facts.output.count}} [{{nodes.gone.output}}]',
    });
    expect(outcome).toEqual({ kind: 'output', output: 'About otters: {"count":3} / 3 []' });
  });

  it('lists its one template for reference checks', () => {
    expect(templateNode.templates({ template: 'Hi {{inputs.name}}' })).toEqual([
      { field: 'template', text: 'Hi {{inputs.name}}' },
    ]);
  });
});
