import { describe, expect, it } from 'vitest';
import { ChangeSetSchema } from '../model/change-set';
import type { UnsavedText } from './unsaved-text';
import { clashingNodeId, movedRemovedMessage, putBackAllMessage, refusalTitle } from './refusal-text';

const typed: UnsavedText = { where: 'ask · prompt', text: 'Mine', place: { kind: 'node', id: 'ask', path: 'prompt' } };

describe('refusal text', () => {
  it('names the node id another window took, only when this window added a node of that id', () => {
    const refused = [ChangeSetSchema.parse({ addNodes: [{ id: 'llm_2', type: 'llm' }] })];
    const problem = (nodeId: string) => ({
      code: 'DUPLICATE_NODE_ID' as const,
      severity: 'error' as const,
      message: `node id "${nodeId}" is used twice`,
      nodeId,
    });
    expect(clashingNodeId([problem('llm_2')], refused)).toBe('llm_2');
    expect(clashingNodeId([problem('llm_1')], refused)).toBeUndefined();
  });

  it('says why the edit was refused and what became of the flow and of the text typed', () => {
    const conflict = { code: 'EDIT_CONFLICT' as const, message: 'node "ask" was changed elsewhere; reload to see it' };
    expect(refusalTitle(conflict, undefined, true, [typed])).toBe(
      'Someone changed this flow elsewhere: node "ask" was changed elsewhere. The flow was reloaded; what you typed is below, to copy or put back.',
    );
    expect(refusalTitle({ code: 'VALIDATION_ERROR' as const, message: 'no' }, undefined, true, [])).toBe(
      'Your last edit was not saved (VALIDATION_ERROR): no',
    );
    expect(refusalTitle({ code: 'VALIDATION_ERROR' as const, message: 'no' }, 'llm_2', false, [typed])).toBe(
      'Another window added a node "llm_2" while this one added its own, so yours was not saved. The flow could not be reloaded (is Flowbench still running?): what you typed is below, to copy; reload the window once Flowbench is back.',
    );
  });

  it('says which ids the nodes that went back by themselves took', () => {
    expect(
      putBackAllMessage(
        'llm_1',
        new Map([
          ['llm_1', 'llm_3'],
          ['llm_2', 'llm_2'],
        ]),
      ),
    ).toBe('Another window added a node "llm_1" while this one added its own; yours is now "llm_3"');
    expect(
      putBackAllMessage(
        'llm_1',
        new Map([
          ['llm_1', 'llm_3'],
          ['template_1', 'template_2'],
        ]),
      ),
    ).toBe(
      'Another window added a node "llm_1" while this one added its own; yours are now "llm_3" (was llm_1), "template_2" (was template_1)',
    );
  });

  it('says which cards moved here were removed elsewhere, and that the others were moved again', () => {
    expect(movedRemovedMessage(['say'], true)).toBe(
      'Another window removed "say" while you moved it; the other cards you moved are where you put them',
    );
    expect(movedRemovedMessage(['say', 'ask'], false)).toBe('Another window removed "say", "ask" while you moved them');
  });
});
