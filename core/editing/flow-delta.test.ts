import { describe, expect, it } from 'vitest';
import { FlowSchema, type Flow } from '../model/flow';
import { generatedFlow } from '../../tests/helpers/flows';
import { applyFlowDelta, flowDelta } from './flow-delta';

const flow = (): Flow => FlowSchema.parse(generatedFlow(200, 'big'));

/** What crosses to a worker: a structured clone, sharing nothing with the page. */
const sent = <T>(value: T): T => structuredClone(value);

describe('flow deltas', () => {
  it('carry one node for an edit of one node, and rebuild the new flow from a copy of the old', () => {
    const before = flow();
    const after = { ...before, nodes: before.nodes.map((n, i) => (i === 50 ? { ...n, label: 'edited' } : n)) };
    const delta = flowDelta(before, after);
    expect(delta.lists.nodes?.changed.map(([index]) => index)).toEqual([50]);
    expect(Object.keys(delta.fields)).toEqual([]);
    const held = sent(before);
    expect(applyFlowDelta(held, sent(delta))).toEqual(after);
    expect(held).toEqual(before); // the old copy is left as it was
  });

  it('follow nodes added, removed and reordered, edges, notes and plain fields, and fields that go', () => {
    const before = { ...flow(), notes: [{ id: 'n1', text: 'one', position: { x: 0, y: 0 } }] } as Flow;
    const kept = before.nodes.filter((_, i) => i !== 3);
    const after = {
      ...before,
      name: 'Renamed',
      nodes: [...kept.slice(0, 10), { ...before.nodes[0]!, id: 'new-node' }, ...kept.slice(10)],
      edges: before.edges.slice(0, 5),
      notes: [],
      tool: undefined,
    } as unknown as Flow;
    delete (after as { tool?: unknown }).tool;
    expect(applyFlowDelta(sent(before), sent(flowDelta(before, after)))).toEqual(after);
    // And back again, a longer list from a shorter one.
    expect(applyFlowDelta(sent(after), sent(flowDelta(after, before)))).toEqual(before);
  });

  it('is empty for the same flow', () => {
    const same = flow();
    expect(flowDelta(same, same)).toEqual({ fields: {}, removed: [], lists: {} });
  });
});
