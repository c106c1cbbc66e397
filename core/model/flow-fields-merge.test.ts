import { describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { FlowSchema } from './flow';
import { mergedFields, rebaseFlowFields } from './flow-fields-merge';

const flow = FlowSchema.parse({ ...smallFlow(), description: 'Greets.\nBe brief.' });

describe('rebaseFlowFields', () => {
  it("takes the host's merged fields this window left as it sent them, and names them", () => {
    const sent = { ...flow, description: 'Greets.\nBe brief.\nMine', tool: { ...flow.tool, description: 'Says hi' } };
    const host = { description: 'Greets people.\nBe brief.\nMine', tool: { description: 'Says hi to a person' } };
    const { flow: shown, taken } = rebaseFlowFields(sent, sent, host);
    expect(shown).toMatchObject(host);
    expect(taken).toEqual(['description', 'tool description']);
  });

  it('keeps what this window changed again since, which its next save merges', () => {
    const sent = { ...flow, description: 'Greets.\nBe brief.\nMine' };
    const typedOn = { ...sent, description: 'Greets.\nBe brief.\nMine, and more' };
    const { flow: shown, taken } = rebaseFlowFields(typedOn, sent, { description: 'Greets people.\nBe brief.\nMine' });
    expect(shown.description).toBe('Greets.\nBe brief.\nMine, and more');
    expect(taken).toEqual([]);
  });
});

describe('mergedFields', () => {
  it('gives the fields the merge changed from what was sent, or nothing', () => {
    expect(mergedFields({ name: 'A', description: 'x' }, { name: 'A', description: 'y' })).toEqual({
      description: 'y',
    });
    expect(mergedFields({ name: 'A' }, { name: 'A' })).toBeUndefined();
    expect(mergedFields(undefined, { name: 'A' })).toBeUndefined();
  });
});
