import { describe, expect, it } from 'vitest';
import { applyChangeSet, ChangeSetSchema } from '../model/change-set';
import { FlowSchema } from '../model/flow';
import { buildFlow, input, llm, output, template } from '../../tests/helpers/flow-builder';
import { copyClip, pasteChanges, PASTE_OFFSET } from './paste';

const flow = FlowSchema.parse(
  buildFlow({
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      input(),
      template('ask', 'About {{inputs.topic}}'),
      llm('answer', '{{ nodes.ask.output }} and {{nodes.ask.output.x}}; see {{nodes.input.output}}', {
        system: '{{nodes.ask.error}}',
      }),
      output('{{nodes.answer.output}}'),
    ],
    edges: ['input>ask', 'ask>answer', 'answer>result'],
  }),
);

describe('pasteChanges', () => {
  it('gives pasted nodes free ids, moves them aside and joins them by new edges', () => {
    const clip = copyClip(flow, ['ask', 'answer']);
    expect(clip.edges.map((e) => `${e.source}>${e.target}`)).toEqual(['ask>answer']);
    const { changes, nodeIds } = pasteChanges(flow, clip);
    expect(nodeIds).toEqual(['template_1', 'llm_1']);
    const parsed = ChangeSetSchema.parse(changes);
    expect(parsed.addEdges).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^e_/),
        source: 'template_1',
        target: 'llm_1',
        sourcePort: 'out',
      }),
    ]);
    const ask = flow.nodes.find((n) => n.id === 'ask');
    expect(parsed.addNodes[0]?.position).toEqual({
      x: (ask?.position.x ?? 0) + PASTE_OFFSET,
      y: (ask?.position.y ?? 0) + PASTE_OFFSET,
    });
    // The result is a valid change to the flow: the pasted copy lives beside the original.
    expect(applyChangeSet(flow, parsed).nodes.map((n) => n.id)).toEqual([
      'input',
      'ask',
      'answer',
      'result',
      'template_1',
      'llm_1',
    ]);
  });

  it('renames references to pasted nodes in any spelling the parser accepts, and keeps the others', () => {
    const { changes } = pasteChanges(flow, copyClip(flow, ['ask', 'answer']));
    const pasted = ChangeSetSchema.parse(changes).addNodes.find((n) => n.id === 'llm_1');
    // `{{ nodes.ask.output }}` (with spaces) follows the copy too; `input` was not pasted.
    expect(pasted?.config).toEqual({
      prompt: '{{nodes.template_1.output}} and {{nodes.template_1.output.x}}; see {{nodes.input.output}}',
      system: '{{nodes.template_1.error}}',
    });
  });

  it('pasting twice never reuses an id', () => {
    const first = pasteChanges(flow, copyClip(flow, ['ask']));
    const afterFirst = applyChangeSet(flow, ChangeSetSchema.parse(first.changes));
    expect(pasteChanges(afterFirst, copyClip(flow, ['ask'])).nodeIds).toEqual(['template_2']);
  });
});
