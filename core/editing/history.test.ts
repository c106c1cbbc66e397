import { describe, expect, it } from 'vitest';
import { ChangeSetSchema } from '../model/change-set';
import { FlowSchema } from '../model/flow';
import { COALESCE_MS, EMPTY_HISTORY, HISTORY_LIMIT, recordEdit, redo, undo } from './history';

const rename = (label: string) => ChangeSetSchema.parse({ updateNodes: [{ id: 'a', label }] });

describe('history', () => {
  it('undoes and redoes edits in order; a new edit clears what could be redone', () => {
    let history = recordEdit(EMPTY_HISTORY, { forward: rename('one'), backward: rename('') }, 0);
    history = recordEdit(history, { forward: rename('two'), backward: rename('one') }, 5000);
    const undone = undo(history);
    expect(undone?.changes).toEqual(rename('one'));
    const redone = redo(undone!.history);
    expect(redone?.changes).toEqual(rename('two'));
    const afterEdit = recordEdit(undone!.history, { forward: rename('three'), backward: rename('one') }, 9000);
    expect(afterEdit.future).toEqual([]);
    expect(redo(afterEdit)).toBeUndefined();
    expect(undo(EMPTY_HISTORY)).toBeUndefined();
  });

  it('keystrokes in one field soon after each other are one step back to before the first', () => {
    let history = recordEdit(EMPTY_HISTORY, { forward: rename('h'), backward: rename(''), coalesceKey: 'a.label' }, 0);
    history = recordEdit(history, { forward: rename('hi'), backward: rename('h'), coalesceKey: 'a.label' }, 300);
    expect(history.past).toHaveLength(1);
    expect(undo(history)?.changes).toEqual(rename(''));
    expect(redo(undo(history)!.history)?.changes).toEqual(rename('hi'));
    const later = recordEdit(
      history,
      { forward: rename('hi!'), backward: rename('hi'), coalesceKey: 'a.label' },
      300 + COALESCE_MS,
    );
    expect(later.past).toHaveLength(2);
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    let history = EMPTY_HISTORY;
    for (let i = 0; i <= HISTORY_LIMIT; i++)
      history = recordEdit(history, { forward: rename(`${i}`), backward: rename('') }, i * 2000);
    expect(history.past).toHaveLength(HISTORY_LIMIT);
    expect(history.past[0]?.forward).toEqual(rename('1'));
  });

  it("undoing a config edit puts back the keys it changed, not another window's setting merged in since", () => {
    const config = (prompt: string, temperature: number) =>
      ChangeSetSchema.parse({ updateNodes: [{ id: 'a', config: { prompt, temperature } }] });
    const history = recordEdit(EMPTY_HISTORY, { forward: config('Two', 0.7), backward: config('One', 0.7) }, 0);
    // Another window set the temperature meanwhile, and the host merged it into this editor's flow.
    const flow = FlowSchema.parse({
      schemaVersion: 1,
      id: 'f',
      name: 'F',
      tool: { name: 'f' },
      nodes: [{ id: 'a', type: 'llm', config: { prompt: 'Two', temperature: 0.2 } }],
      edges: [],
    });
    const undone = undo(history, flow);
    expect(undone?.changes.updateNodes[0]?.config).toEqual({ prompt: 'One', temperature: 0.2 });
    expect(redo(undone!.history, flow)?.changes.updateNodes[0]?.config).toEqual({ prompt: 'Two', temperature: 0.2 });
    // Without the flow, as recorded.
    expect(undo(history)?.changes).toEqual(config('One', 0.7));
  });
  it('undoing an item added to a list takes that item out, not the one another window added to it since', () => {
    const arg = (name: string) => ({ name, value: `{{inputs.${name}}}` });
    const args = (...names: string[]) =>
      ChangeSetSchema.parse({ updateNodes: [{ id: 'a', config: { tool: 'x', arguments: names.map(arg) } }] });
    const history = recordEdit(EMPTY_HISTORY, { forward: args('a', 'mine'), backward: args('a') }, 0);
    const flow = FlowSchema.parse({
      schemaVersion: 1,
      id: 'f',
      name: 'F',
      tool: { name: 'f' },
      nodes: [{ id: 'a', type: 'mcp_tool', config: { tool: 'x', arguments: ['a', 'theirs', 'mine'].map(arg) } }],
      edges: [],
    });
    const undone = undo(history, flow);
    expect(undone?.changes.updateNodes[0]?.config).toEqual({ tool: 'x', arguments: [arg('a'), arg('theirs')] });
    const shown = { ...flow, nodes: [{ ...flow.nodes[0]!, config: undone!.changes.updateNodes[0]!.config! }] };
    expect(redo(undone!.history, shown)?.changes.updateNodes[0]?.config).toEqual({
      tool: 'x',
      arguments: [arg('a'), arg('theirs'), arg('mine')],
    });
  });

  it('undoing a line typed in a prompt takes that line out, keeping the line another window wrote since', () => {
    const prompt = (...lines: string[]) =>
      ChangeSetSchema.parse({ updateNodes: [{ id: 'a', config: { template: lines.join('\n') } }] });
    const history = recordEdit(
      EMPTY_HISTORY,
      { forward: prompt('Hi', 'Be brief.', 'Mine'), backward: prompt('Hi', 'Be brief.') },
      0,
    );
    const flow = FlowSchema.parse({
      schemaVersion: 1,
      id: 'f',
      name: 'F',
      tool: { name: 'f' },
      nodes: [{ id: 'a', type: 'template', config: { template: 'Hello\nBe brief.\nMine' } }],
      edges: [],
    });
    const undone = undo(history, flow);
    expect(undone?.changes.updateNodes[0]?.config).toEqual({ template: 'Hello\nBe brief.' });
    const shown = { ...flow, nodes: [{ ...flow.nodes[0]!, config: undone!.changes.updateNodes[0]!.config! }] };
    expect(redo(undone!.history, shown)?.changes.updateNodes[0]?.config).toEqual({
      template: 'Hello\nBe brief.\nMine',
    });
    // The other window wrote in the line typed here: the step's whole text, as for any other setting.
    const overlapping = { ...flow, nodes: [{ ...flow.nodes[0]!, config: { template: 'Hi\nBe brief.\nMine!' } }] };
    expect(undo(history, overlapping)?.changes.updateNodes[0]?.config).toEqual({ template: 'Hi\nBe brief.' });
  });

  it("undoing a note or a line of the description written here keeps another window's merged in since", () => {
    const note = (id: string, text: string) => ({ id, text, position: { x: 0, y: 0 } });
    const fields = (description: string, notes: ReturnType<typeof note>[]) =>
      ChangeSetSchema.parse({ flow: { description, notes } });
    const history = recordEdit(
      EMPTY_HISTORY,
      {
        forward: fields('Greets.\nBe brief.\nMine', [note('a', 'A mine'), note('b', 'B')]),
        backward: fields('Greets.\nBe brief.', [note('a', 'A'), note('b', 'B')]),
      },
      0,
    );
    // Shown now: the other window's line and its note text, merged in.
    const flow = FlowSchema.parse({
      schemaVersion: 1,
      id: 'f',
      name: 'F',
      description: 'Greets people.\nBe brief.\nMine',
      tool: { name: 'f' },
      nodes: [],
      edges: [],
      notes: [note('a', 'A mine'), note('b', 'B theirs')],
    });
    const undone = undo(history, flow)?.changes.flow;
    expect(undone?.description).toBe('Greets people.\nBe brief.');
    expect(undone?.notes?.map((n) => n.text)).toEqual(['A', 'B theirs']);
  });
});
