import { describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { applyChangeSet, ChangeSetSchema, invertChangeSet } from '../model/change-set';
import { FlowSchema, type Flow, type FlowInput } from '../model/flow';
import { changeSetBetween, diffFlows, draftComparer, isSameFlow } from './flow-diff';

const published = FlowSchema.parse(smallFlow());
const draftOf = (input: Partial<FlowInput>) => FlowSchema.parse(smallFlow(input));

/** The flow with its nodes and edges in id order: a change set may list them in another order. */
const sorted = (flow: Flow) => ({
  ...flow,
  nodes: [...flow.nodes].sort((a, b) => a.id.localeCompare(b.id)),
  edges: [...flow.edges].sort((a, b) => a.id.localeCompare(b.id)),
});

// A draft edited every way since it was published.
const draft = draftOf({
  name: 'Renamed',
  tool: { name: 'small_flow', description: 'now with a summary', enabled: false },
  tests: [{ id: 't1', name: 'greets', inputs: { topic: 'tea' } }],
  nodes: [
    { id: 'input', type: 'input', position: { x: 0, y: 40 } },
    // Another type under the same id: removed and added again, with its edges.
    { id: 'greet', type: 'llm', position: { x: 200, y: 0 }, config: { prompt: 'About {{inputs.topic}}' } },
    { id: 'summary', type: 'template', position: { x: 300, y: 200 }, config: { template: 'sum' } },
    {
      id: 'result',
      type: 'output',
      label: 'Answer',
      position: { x: 400, y: 0 },
      config: { returnValues: [{ id: 'r', text: '{{nodes.greet.output}} {{nodes.summary.output}}' }] },
    },
  ],
  edges: [
    { id: 'e1', source: 'input', target: 'greet' },
    { id: 'e2', source: 'greet', target: 'result' },
    { id: 'e3', source: 'summary', target: 'result' },
  ],
});

describe('diffFlows', () => {
  it('says what changed by node, then the flow’s own fields; offering the tool is not a change', () => {
    expect(diffFlows(published, draft)).toEqual({
      added: ['summary'],
      removed: [],
      changed: [
        { id: 'greet', fields: ['type'] },
        { id: 'result', fields: ['label', 'config.returnValues'] },
      ],
      moved: ['input'],
      edgesAdded: 1,
      edgesRemoved: 0,
      fields: ['name', 'tests', 'tool.description'],
    });
    expect(isSameFlow(diffFlows(published, draftOf({ tool: { name: 'small_flow', enabled: false } })))).toBe(true);
  });
});

describe('changeSetBetween', () => {
  it('turns the draft into the published version in one edit, which undo takes back', () => {
    const changes = ChangeSetSchema.parse(changeSetBetween(draft, published));
    const restored = applyChangeSet(draft, changes);
    // Everything the version has, but the tool stays as offered (or not) as it was.
    expect(sorted(restored)).toEqual(sorted({ ...published, tool: { ...published.tool, enabled: false } }));
    expect(isSameFlow(diffFlows(published, restored))).toBe(true);
    const undone = applyChangeSet(restored, invertChangeSet(draft, changes));
    expect(sorted(undone)).toEqual(sorted(draft));
  });

  it('keeps the edges of a replaced node, and changes an edge that differs', () => {
    const from = draftOf({ edges: [...published.edges.slice(0, 1), { id: 'e2', source: 'greet', target: 'result' }] });
    const to = FlowSchema.parse({
      ...from,
      nodes: from.nodes.map((n) => (n.id === 'greet' ? { ...n, type: 'llm', config: { prompt: 'p' } } : n)),
      edges: [from.edges[0], { id: 'e2', source: 'greet', target: 'result', targetPort: 'in', loop: undefined }],
    });
    const restored = applyChangeSet(from, ChangeSetSchema.parse(changeSetBetween(from, to)));
    expect(sorted(restored)).toEqual(sorted(to));
  });

  it('is empty between a flow and itself', () => {
    const changes = changeSetBetween(draft, draft);
    expect(changes).toEqual({ removeEdges: [], removeNodes: [], addNodes: [], updateNodes: [], addEdges: [] });
  });
});

describe('draftComparer', () => {
  const edit = (flow: Flow, changes: unknown) => applyChangeSet(flow, ChangeSetSchema.parse(changes));
  const prompt = (flow: Flow, text: string) =>
    edit(flow, { updateNodes: [{ id: 'greet', config: { template: text } }] });

  it('answers as the versions list does, edit after edit, and again once an edit is taken back', () => {
    const isPublished = draftComparer(published);
    const steps: Flow[] = [published];
    const at = (i: number) => steps[i] as Flow;
    steps.push(prompt(at(0), 'Other words'));
    steps.push(edit(at(1), { updateNodes: [{ id: 'input', position: { x: 5, y: 5 } }] }));
    steps.push(edit(at(2), { flow: { tool: { description: 'says hello' } } }));
    steps.push(edit(at(3), { flow: { tool: { description: '' } } }));
    steps.push(edit(at(4), { updateNodes: [{ id: 'input', position: published.nodes[0]?.position }] }));
    // The prompt typed back as it was: a new node object, the same content.
    steps.push(prompt(at(5), 'About {{inputs.topic}}'));
    steps.push(edit(at(6), { removeEdges: ['e2'] }));
    steps.push(edit(at(7), { addEdges: [published.edges[1]] }));
    steps.push(edit(at(8), { flow: { tool: { enabled: false } } }));
    steps.push(draft);
    const answers = steps.map((flow) => isPublished(flow));
    expect(answers).toEqual(steps.map((flow) => isSameFlow(diffFlows(published, flow))));
    expect(answers).toEqual([true, false, false, false, false, false, true, false, true, true, false]);
  });

  it('is not fooled by a node listed twice in place of another', () => {
    const [first, second] = published.nodes;
    const twice = { ...published, nodes: published.nodes.map((n) => (n === second ? (first as typeof n) : n)) };
    expect(draftComparer(published)(twice)).toBe(false);
  });
});
