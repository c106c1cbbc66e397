import { describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { inputNode } from './definition';

describe('input node', () => {
  it('has no config, and passes the run inputs on as its output', async () => {
    expect(inputNode.configSchema.parse({})).toEqual({});
    const outcome = await inputNode.execute?.(nodeContext({ inputs: { topic: 'otters', n: 2 } }), inputNode.defaults());
    expect(outcome).toEqual({ kind: 'output', output: { topic: 'otters', n: 2 } });
  });

  it("is the flow's entry and shows the parameters, with no run settings", () => {
    expect(inputNode).toMatchObject({ isEntry: true, showsParameters: true, hasRunSettings: false });
    expect(inputNode.isResult).toBeUndefined();
  });
});
