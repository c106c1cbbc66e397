import { describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { applyChangeSet, ChangeSetSchema, invertChangeSet, ToolSettingsUpdateSchema } from './change-set';
import { FlowSchema, ToolSettingsSchema } from './flow';

const flow = FlowSchema.parse(smallFlow());

describe('invertChangeSet', () => {
  const cases = {
    'a move': { updateNodes: [{ id: 'greet', position: { x: 9, y: 9 } }] },
    'a config edit': { updateNodes: [{ id: 'greet', config: { template: 'other' }, label: 'Hi' }] },
    'a node removal with its edges': { removeNodes: ['greet'] },
    'an added node and edge': {
      addNodes: [{ id: 'extra', type: 'template', config: { template: 'x' } }],
      addEdges: [{ id: 'e9', source: 'input', target: 'extra' }],
    },
    'flow fields': { flow: { name: 'Renamed', tool: { description: 'new' }, parameters: [] } },
    'test cases and their publish gate': {
      flow: { tests: [{ id: 't1', name: 'greets', inputs: { topic: 'tea' } }], testsGatePublish: true },
    },
    'memory and notes': {
      flow: {
        memory: { channels: [{ id: 'chat', retentionDays: 7 }] },
        notes: [{ id: 'n1', text: 'why', position: { x: 0, y: 0 }, width: 200, height: 120, color: 'yellow' }],
      },
    },
  };
  for (const [name, input] of Object.entries(cases)) {
    it(`undoes ${name}`, () => {
      const changes = ChangeSetSchema.parse(input);
      const after = applyChangeSet(flow, changes);
      const undone = applyChangeSet(after, invertChangeSet(flow, changes));
      expect(FlowSchema.parse(undone)).toEqual({
        ...flow,
        nodes: expect.arrayContaining(flow.nodes),
        edges: expect.arrayContaining(flow.edges),
      });
      expect(undone.nodes).toHaveLength(flow.nodes.length);
      expect(undone.edges).toHaveLength(flow.edges.length);
    });
  }
});

describe('an edit of one tool setting', () => {
  const tool = { name: 'small_flow', whenToUse: 'when asked', enabled: false, annotations: { readOnlyHint: true } };
  const offered = FlowSchema.parse(smallFlow({ tool }));

  it('leaves the others as they are: the tool stays switched off, its hints and annotations kept', () => {
    const changes = ChangeSetSchema.parse({ flow: { tool: { description: 'Says hello' } } });
    expect(changes.flow?.tool).toEqual({ description: 'Says hello' });
    expect(applyChangeSet(offered, changes).tool).toEqual({ ...offered.tool, description: 'Says hello' });
  });

  it('can name every tool setting', () => {
    expect(Object.keys(ToolSettingsUpdateSchema.unwrap().shape).sort()).toEqual(
      Object.keys(ToolSettingsSchema.unwrap().shape).sort(),
    );
  });
});
