import { describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { nodeRegistry } from '../nodes/registry';
import { FlowSchema, type Flow } from './flow';
import { validateFlow } from './validate';
import { createValidationMemo } from './validation-memo';

const base: Flow = FlowSchema.parse(
  smallFlow({
    nodes: [
      ...smallFlow().nodes,
      { id: 'llm1', type: 'llm', position: { x: 200, y: 200 }, config: { prompt: 'Summarise {{nodes.greet.output}}' } },
    ],
    edges: [...smallFlow().edges!, { id: 'e3', source: 'greet', target: 'llm1' }],
  }),
);

/** The flow with one node replaced, as an edit replaces it (a new object; the others kept). */
const withNode = (flow: Flow, id: string, change: (node: Flow['nodes'][number]) => object): Flow => ({
  ...flow,
  nodes: flow.nodes.map((node) => (node.id === id ? { ...node, ...change(node) } : node)),
});

/**
 * Edits one after the other, with the problem codes the flow then has: among them
 * an unchanged node's problems that depend on the rest of the flow.
 */
const edits: [string, (flow: Flow) => Flow, string[]][] = [
  [
    'a config made invalid',
    (f) => withNode(f, 'llm1', (n) => ({ config: { ...n.config, temperature: 7 } })),
    ['INVALID_CONFIG'],
  ],
  ['the config made valid again', (f) => withNode(f, 'llm1', (n) => ({ config: { ...n.config, temperature: 1 } })), []],
  // llm1 is unchanged, but what it refers to is no longer upstream of it (and nothing leads to it).
  [
    'an edge removed',
    (f) => ({ ...f, edges: f.edges.filter((e) => e.id !== 'e3') }),
    ['UNREACHABLE_NODE', 'UNRESOLVED_REFERENCE'],
  ],
  ['the edge back', (f) => ({ ...f, edges: [...f.edges, { ...base.edges[2]! }] }), []],
  // greet is unchanged, but the parameter it names is gone.
  [
    'a parameter renamed',
    (f) => ({ ...f, parameters: [{ ...f.parameters[0]!, name: 'subject' }] }),
    ['UNRESOLVED_REFERENCE'],
  ],
  ['a node moved', (f) => withNode(f, 'greet', () => ({ position: { x: 5, y: 5 } })), ['UNRESOLVED_REFERENCE']],
  [
    'a second node with the same id',
    (f) => ({ ...f, nodes: [...f.nodes, f.nodes[1]!] }),
    ['UNRESOLVED_REFERENCE', 'DUPLICATE_NODE_ID'],
  ],
  [
    'a node of an unknown type',
    (f) => ({ ...f, nodes: [...f.nodes, { ...f.nodes[0]!, id: 'x', type: 'teleport' }] }),
    ['UNRESOLVED_REFERENCE', 'DUPLICATE_NODE_ID', 'UNKNOWN_NODE_TYPE'],
  ],
];

describe('validateFlow with a memo (the editor, after each edit)', () => {
  it('finds the same problems as a validation from scratch, after each edit', () => {
    const memo = createValidationMemo();
    let flow = base;
    expect(validateFlow(flow, { catalogue: nodeRegistry, memo }).problems).toEqual([]);
    for (const [edit, apply, codes] of edits) {
      flow = apply(flow);
      const remembered = validateFlow(flow, { catalogue: nodeRegistry, memo }).problems;
      const fresh = validateFlow(flow, { catalogue: nodeRegistry }).problems;
      expect(remembered, edit).toEqual(fresh);
      expect(new Set(remembered.map((p) => p.code)), edit).toEqual(new Set(codes));
    }
  });

  it('parses again only the nodes and edges an edit replaced', () => {
    const memo = createValidationMemo();
    const before = validateFlow(base, { catalogue: nodeRegistry, memo }).flow!;
    const edited = withNode(base, 'greet', (n) => ({ config: { ...n.config, template: 'On {{inputs.topic}}' } }));
    const after = validateFlow(edited, { catalogue: nodeRegistry, memo }).flow!;
    expect(after.nodes.map((node, i) => node === before.nodes[i])).toEqual([true, false, true, true]);
    expect(after.edges.every((edge, i) => edge === before.edges[i])).toBe(true);
    expect(after.nodes[1]?.config).toEqual({ template: 'On {{inputs.topic}}' });
  });
});
