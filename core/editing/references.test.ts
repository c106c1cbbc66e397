import { describe, expect, it } from 'vitest';
import { FlowSchema } from '../model/flow';
import { buildFlow, input, output, template } from '../../tests/helpers/flow-builder';
import { generatedFlow } from '../../tests/helpers/flows';
import { referencesFor, sameReferences } from './references';

const labels = (flow: Parameters<typeof referencesFor>[0], nodeId: string) =>
  referencesFor(flow, nodeId).map((option) => option.label);

describe('referencesFor: what the template editor offers after {{', () => {
  const flow = FlowSchema.parse(
    buildFlow({
      parameters: [{ name: 'topic', type: 'string' }],
      nodes: [input(), template('a', 'A'), template('b', 'B'), output('{{nodes.a.output}} {{nodes.b.output}}')],
      edges: ['input>a', 'input>b', 'a>result', 'b>result'],
    }),
  );

  it('offers the parameters and every node upstream, in the flow’s order, never the node itself or a sibling', () => {
    expect(labels(flow, 'result')).toEqual(['inputs.topic', 'nodes.input.output', 'nodes.a.output', 'nodes.b.output']);
    expect(labels(flow, 'a')).toEqual(['inputs.topic', 'nodes.input.output']);
    expect(labels(flow, 'input')).toEqual(['inputs.topic']);
  });

  it('says how many edges back each node is, the shortest way when there are several', () => {
    const diamond = FlowSchema.parse(
      buildFlow({
        nodes: [input(), template('a', 'A'), template('b', 'B'), output('{{nodes.b.output}}')],
        edges: ['input>a', 'a>b', 'input>result', 'b>result'],
      }),
    );
    const hops = referencesFor(diamond, 'result').map((option) => [option.label, option.hops]);
    expect(hops).toEqual([
      ['nodes.input.output', 1],
      ['nodes.a.output', 2],
      ['nodes.b.output', 1],
    ]);
  });

  it('reaches back the whole length of a 10,000-node chain', () => {
    const chain = FlowSchema.parse(generatedFlow(10_000));
    const offered = labels(chain, 'n9999');
    expect(offered).toHaveLength(9_999);
    expect(offered[0]).toBe('nodes.n0.output');
    expect(offered.at(-1)).toBe('nodes.n9998.output');
    expect(referencesFor(chain, 'n9999').at(-1)?.hops).toBe(1);
  });
});

describe('sameReferences: whether an edit can change what nodes may refer to', () => {
  const flow = FlowSchema.parse(
    buildFlow({
      parameters: [{ name: 'topic', type: 'string' }],
      nodes: [input(), template('a', 'A'), output('{{nodes.a.output}}')],
      edges: ['input>a', 'a>result'],
    }),
  );
  const withNode = (index: number, change: Record<string, unknown>) => ({
    ...flow,
    nodes: flow.nodes.map((node, i) => (i === index ? { ...node, ...change } : node)),
  });

  it('is true when cards were only moved (a drag, the arrow keys, Layout)', () => {
    expect(sameReferences(flow, flow)).toBe(true);
    expect(sameReferences(flow, withNode(1, { position: { x: 400, y: 80 } }))).toBe(true);
  });

  it('is false for anything else a reference may come from: a label, a config, a node, an edge, a parameter', () => {
    expect(sameReferences(flow, withNode(1, { label: 'Renamed' }))).toBe(false);
    expect(sameReferences(flow, withNode(1, { config: { template: 'B' } }))).toBe(false);
    expect(sameReferences(flow, withNode(1, { forEach: { items: '{{inputs.topic}}' } }))).toBe(false);
    expect(sameReferences(flow, { ...flow, nodes: flow.nodes.slice(0, 2) })).toBe(false);
    expect(sameReferences(flow, { ...flow, edges: flow.edges.slice(1) })).toBe(false);
    expect(sameReferences(flow, { ...flow, parameters: [] })).toBe(false);
  });
});
