import { describe, expect, it } from 'vitest';
import { FlowSchema } from '../model/flow';
import { inputNode } from '../nodes/input/definition';
import { llmNode } from '../nodes/llm/definition';
import { buildFlow, input, output, template } from '../../tests/helpers/flow-builder';
import {
  addJoinedNodeChange,
  addNodeChange,
  connectChange,
  insertNodeChange,
  loopLimitChange,
  moveChange,
  typesToJoin,
} from './edits';
import { nodeRegistry } from '../nodes/registry';

const flow = FlowSchema.parse(
  buildFlow({
    nodes: [input(), template('ask', 'hi'), output('{{nodes.ask.output}}')],
    edges: ['input>ask', 'ask>result'],
  }),
);

describe('editing changes', () => {
  it('adds a node of a type with its defaults under a free id', () => {
    const { changes, nodeId } = addNodeChange(flow, llmNode, { x: 10, y: 20 });
    expect(nodeId).toBe('llm_1');
    expect(changes.addNodes?.[0]).toEqual({
      id: 'llm_1',
      type: 'llm',
      version: 1,
      label: 'LLM',
      position: { x: 10, y: 20 },
      config: llmNode.defaults(),
    });
    expect(addNodeChange(flow, inputNode, { x: 0, y: 0 }).nodeId).toBe('input_1');
  });

  it('connects two ports, makes an edge that goes back a loop, refuses a second loop from a node, and does nothing for a join that exists', () => {
    // Each connection gets an id of its own, so that one made in another window at once never takes it.
    const edgeId = expect.stringMatching(/^e_[0-9a-z]{8}$/);
    expect(connectChange(flow, { source: 'input', sourcePort: 'out', target: 'result', targetPort: 'in' })).toEqual({
      kind: 'change',
      isLoop: false,
      changes: { addEdges: [{ id: edgeId, source: 'input', sourcePort: 'out', target: 'result', targetPort: 'in' }] },
    });
    const back = connectChange(flow, { source: 'result', sourcePort: 'out', target: 'ask', targetPort: 'in' });
    expect(back).toEqual({
      kind: 'change',
      isLoop: true,
      changes: {
        addEdges: [
          {
            id: edgeId,
            source: 'result',
            sourcePort: 'out',
            target: 'ask',
            targetPort: 'in',
            loop: { maxIterations: 3 },
          },
        ],
      },
    });
    const looped = FlowSchema.parse({
      ...flow,
      edges: [...flow.edges, ...(back.kind === 'change' ? (back.changes.addEdges ?? []) : [])],
    });
    // The person dragging is told which path already runs the other way.
    expect(connectChange(looped, { source: 'result', sourcePort: 'out', target: 'input', targetPort: 'in' })).toEqual({
      kind: 'refused',
      reason: expect.stringMatching(
        /go back \(.*input.* → .*ask.* → .*result.*runs the other way\), and .* already loops back/,
      ),
    });
    const loopId = looped.edges.at(-1)!.id;
    expect(loopLimitChange(looped, loopId, 5)).toEqual({
      removeEdges: [loopId],
      addEdges: [expect.objectContaining({ id: loopId, loop: { maxIterations: 5 } })],
    });
    expect(connectChange(flow, { source: 'ask', sourcePort: 'out', target: 'ask', targetPort: 'in' })).toEqual({
      kind: 'refused',
      reason: expect.stringContaining('cannot feed itself'),
    });
    expect(connectChange(flow, { source: 'input', sourcePort: 'out', target: 'ask', targetPort: 'in' })).toEqual({
      kind: 'exists',
    });
  });

  it("fills a new upstream node's output into the target's empty text, and leaves written text alone (issue 17, point 3)", () => {
    const drafted = FlowSchema.parse(
      buildFlow({
        nodes: [
          input(),
          template('ask', 'About {{inputs.topic}}'),
          { id: 'answer', type: 'llm' },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '' }] } },
          template('written', 'kept as it is'),
        ],
        edges: [],
      }),
    );
    const connect = (source: string, target: string, sourcePort = 'out') =>
      connectChange(drafted, { source, sourcePort, target, targetPort: 'in' });
    expect(connect('ask', 'answer')).toMatchObject({
      changes: { updateNodes: [{ id: 'answer', config: expect.objectContaining({ prompt: '{{nodes.ask.output}}' }) }] },
    });
    expect(connect('answer', 'result')).toMatchObject({
      changes: {
        updateNodes: [
          {
            id: 'result',
            config: expect.objectContaining({ returnValues: [{ id: 'r', text: '{{nodes.answer.output}}' }] }),
          },
        ],
      },
    });
    // Text already written stays; the entry node (every input at once) and error ports fill nothing.
    expect(connect('ask', 'written')).toEqual({
      kind: 'change',
      isLoop: false,
      changes: { addEdges: [expect.any(Object)] },
    });
    expect(connect('input', 'answer')).toEqual({
      kind: 'change',
      isLoop: false,
      changes: { addEdges: [expect.any(Object)] },
    });
    expect(connect('answer', 'result', 'error')).toEqual({
      kind: 'change',
      isLoop: false,
      changes: { addEdges: [expect.any(Object)] },
    });
  });

  it('adds a node joined to the port a connection was dragged from, its empty text filled, in one change', () => {
    const llm = nodeRegistry.get('llm')!;
    // Dragged off the template's output: the new LLM's input is joined, its empty prompt reads the template.
    const after = addJoinedNodeChange(flow, llm, { x: 400, y: 0 }, { nodeId: 'ask', port: 'out', side: 'source' });
    expect(after?.nodeId).toBe('llm_1');
    expect(after?.changes.addNodes).toEqual([
      expect.objectContaining({
        id: 'llm_1',
        position: { x: 400, y: 0 },
        config: expect.objectContaining({ prompt: '{{nodes.ask.output}}' }),
      }),
    ]);
    expect(after?.changes.addEdges).toEqual([
      expect.objectContaining({ source: 'ask', sourcePort: 'out', target: 'llm_1', targetPort: 'in' }),
    ]);
    expect(after?.changes.updateNodes).toBeUndefined();

    // Dragged off the output's input: the new node's data output feeds it.
    const before = addJoinedNodeChange(
      flow,
      nodeRegistry.get('template')!,
      { x: 0, y: 200 },
      {
        nodeId: 'result',
        port: 'in',
        side: 'target',
      },
    );
    expect(before?.changes.addEdges).toEqual([
      expect.objectContaining({ source: 'template_1', sourcePort: 'out', target: 'result', targetPort: 'in' }),
    ]);

    // The node it was to join deleted meanwhile (the menu open): no change with an edge to a node that is
    // gone, which the host refused whole; the caller adds the node unjoined.
    expect(addJoinedNodeChange(flow, llm, { x: 400, y: 0 }, { nodeId: 'gone', port: 'out', side: 'source' })).toBe(
      undefined,
    );

    // What may be added: a type with an input after an output; one with a data output before an input.
    const afterTypes = typesToJoin({ side: 'source' }).map((d) => d.type);
    expect(afterTypes).not.toContain('input');
    expect(afterTypes).toEqual(expect.arrayContaining(['llm', 'agent', 'condition', 'output']));
    const beforeTypes = typesToJoin({ side: 'target' }).map((d) => d.type);
    expect(beforeTypes).toEqual(expect.arrayContaining(['input', 'llm', 'template']));
    expect(beforeTypes).not.toContain('output');
  });

  it('puts a node in the middle of an edge: the edge gives way to two, the new text reads the node before', () => {
    const laidOut = { ...flow, nodes: flow.nodes.map((n, i) => ({ ...n, position: { x: i * 400, y: 0 } })) };
    const edge = laidOut.edges.find((e) => e.source === 'ask' && e.target === 'result')!;
    const inserted = insertNodeChange(laidOut, nodeRegistry.get('llm')!, edge.id);
    expect(inserted?.nodeId).toBe('llm_1');
    expect(inserted?.changes.removeEdges).toEqual([edge.id]);
    expect(inserted?.changes.addEdges).toEqual([
      expect.objectContaining({ source: 'ask', sourcePort: 'out', target: 'llm_1', targetPort: 'in' }),
      expect.objectContaining({ source: 'llm_1', sourcePort: 'out', target: 'result', targetPort: 'in' }),
    ]);
    const node = inserted?.changes.addNodes?.[0];
    expect(node?.config).toMatchObject({ prompt: '{{nodes.ask.output}}' });
    // Room is made: the node after (and what follows it) moves right, the new one goes between.
    expect(node?.position).toEqual({ x: 700, y: 0 });
    expect(inserted?.changes.updateNodes).toEqual([{ id: 'result', position: { x: 1000, y: 0 } }]);
    // With room between the two already, nothing moves.
    const roomy = {
      ...laidOut,
      nodes: laidOut.nodes.map((n) => (n.id === 'result' ? { ...n, position: { x: 1400, y: 0 } } : n)),
    };
    expect(insertNodeChange(roomy, nodeRegistry.get('llm')!, edge.id)?.changes.updateNodes).toBeUndefined();
    // Not with a type that has no output to go on with.
    expect(insertNodeChange(laidOut, nodeRegistry.get('output')!, edge.id)).toBeUndefined();
    expect(insertNodeChange(laidOut, nodeRegistry.get('llm')!, 'no-such-edge')).toBeUndefined();
  });

  it("puts a node into a loop edge as the loop's last node: under the loop, the edge out of it the loop with its passes", () => {
    // input → ask → check → result, with check going back to ask at most 5 passes.
    const looped = FlowSchema.parse(
      buildFlow({
        nodes: [input(), template('ask', 'hi'), template('check', '{{nodes.ask.output}}'), output('x')],
        edges: ['input>ask', 'ask>check', 'check>result'],
      }),
    );
    looped.nodes.forEach((n, i) => (n.position = { x: i * 300, y: 100 }));
    looped.edges.push({
      id: 'back',
      source: 'check',
      sourcePort: 'out',
      target: 'ask',
      targetPort: 'in',
      loop: { maxIterations: 5 },
    });
    const inserted = insertNodeChange(looped, nodeRegistry.get('template')!, 'back');
    expect(inserted?.changes.removeEdges).toEqual(['back']);
    expect(inserted?.changes.addEdges).toEqual([
      expect.objectContaining({ source: 'check', target: 'template_1' }),
      expect.objectContaining({ source: 'template_1', target: 'ask', loop: { maxIterations: 5 } }),
    ]);
    expect(inserted?.changes.addEdges?.[0]).not.toHaveProperty('loop');
    expect(inserted?.changes.addNodes?.[0]?.config).toMatchObject({ template: '{{nodes.check.output}}' });
    // After the loop's source and under it; nothing moves.
    const position = inserted?.changes.addNodes?.[0]?.position;
    expect(position?.y).toBe(260);
    expect(position?.x).toBeGreaterThan(600);
    expect(inserted?.changes.updateNodes).toBeUndefined();
  });

  it('moves only the nodes whose position changed', () => {
    const ask = flow.nodes.find((n) => n.id === 'ask')!;
    expect(
      moveChange(flow, [
        { id: 'ask', position: ask.position },
        { id: 'input', position: { x: 5, y: 6 } },
        { id: 'gone', position: { x: 1, y: 1 } },
      ]),
    ).toEqual({ updateNodes: [{ id: 'input', position: { x: 5, y: 6 } }] });
    expect(moveChange(flow, [{ id: 'ask', position: ask.position }])).toBeUndefined();
  });
});
