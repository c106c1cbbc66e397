import { describe, expect, it } from 'vitest';
import { applyChangeSet, ChangeSetSchema, type ChangeSetInput } from '../model/change-set';
import { FlowSchema, type Flow } from '../model/flow';
import { buildFlow, input, llm, output } from '../../tests/helpers/flow-builder';
import {
  onlyAddedNodes,
  onlyJoinsThereNow,
  movesOfRemoved,
  putBackAllAdded,
  putBackChange,
  putBackPlan,
  unsavedText,
  type UnsavedText,
} from './unsaved-text';

/** What a person reads of each: where, and the text. */
const shown = (found: UnsavedText[]) => found.map(({ where, text }) => ({ where, text }));

const base = (): Flow => ({
  ...FlowSchema.parse(
    buildFlow({
      nodes: [input(), llm('ask', 'Old prompt', { system: 'Be brief' }), output('{{nodes.ask.output}}')],
      edges: ['input>ask', 'ask>result'],
    }),
  ),
  description: 'Old description',
  notes: [
    { id: 'note_1', text: 'first', position: { x: 0, y: 0 }, width: 260, height: 160, color: 'yellow' },
    { id: 'note_2', text: 'second', position: { x: 300, y: 0 }, width: 260, height: 160, color: 'yellow' },
  ],
});

/** The flow as the editor shows it after `edits`, and the edits as the queue holds them. */
function edited(
  flow: Flow,
  ...edits: ChangeSetInput[]
): { mine: Flow; refused: ReturnType<typeof ChangeSetSchema.parse>[] } {
  const refused = edits.map((edit) => ChangeSetSchema.parse(edit));
  return { mine: refused.reduce(applyChangeSet, flow), refused };
}

/** `flow` once the person clicks Put back on `item`, of the items `listed`. */
const putBack = (flow: Flow, item: UnsavedText | undefined, listed: readonly UnsavedText[] = []): Flow =>
  applyChangeSet(flow, ChangeSetSchema.parse(putBackChange(flow, item!, listed)));

describe('unsaved text', () => {
  it('lists the prompt typed in a refused node edit, not the settings it left as stored', () => {
    const flow = base();
    const node = flow.nodes[1]!;
    const { mine, refused } = edited(flow, {
      updateNodes: [{ id: 'ask', config: { ...node.config, prompt: 'My new prompt' } }],
    });
    expect(unsavedText(mine, flow, refused)).toEqual([
      { where: 'ask · prompt', text: 'My new prompt', place: { kind: 'node', id: 'ask', path: 'prompt' } },
    ]);
  });

  it('does not list text the other window changed, only what the refused edits touched', () => {
    const flow = base();
    const { mine, refused } = edited(flow, { flow: { description: 'Mine' } });
    // Stored meanwhile by the other window: another prompt and another note text.
    const stored: Flow = {
      ...flow,
      nodes: flow.nodes.map((n) => (n.id === 'ask' ? { ...n, config: { ...n.config, prompt: 'Theirs' } } : n)),
      notes: flow.notes.map((n) => (n.id === 'note_1' ? { ...n, text: 'theirs' } : n)),
      description: 'Theirs too',
    };
    expect(shown(unsavedText(mine, stored, refused))).toEqual([{ where: 'flow settings · description', text: 'Mine' }]);
  });

  it('lists the text of a note written and of a node added in the refused edits, the latest of a run of edits', () => {
    const flow = base();
    const notes = (text: string) => flow.notes.map((n) => (n.id === 'note_2' ? { ...n, text } : n));
    const added = FlowSchema.parse(
      buildFlow({ nodes: [llm('draft', 'Write a draft', {}, { label: 'Draft' })], edges: [] }),
    ).nodes[0]!;
    const { mine, refused } = edited(
      flow,
      { flow: { notes: notes('second, and') }, notesBase: flow.notes },
      { flow: { notes: notes('second, and more') }, notesBase: flow.notes },
      { addNodes: [added] },
      { flow: { tool: { whenToUse: 'for drafts' } } },
    );
    expect(shown(unsavedText(mine, flow, refused))).toEqual([
      { where: 'Draft (added, not saved) · label', text: 'Draft' },
      { where: 'Draft (added, not saved) · prompt', text: 'Write a draft' },
      { where: 'sticky note note_2', text: 'second, and more' },
      { where: 'flow settings · tool.whenToUse', text: 'for drafts' },
    ]);
  });

  it('lists nothing for refused moves, removals and text already stored as typed', () => {
    const flow = base();
    const { mine, refused } = edited(
      flow,
      { updateNodes: [{ id: 'ask', position: { x: 500, y: 500 } }] },
      { removeNodes: ['result'] },
      { flow: { description: 'Old description' } },
    );
    expect(unsavedText(mine, flow, refused)).toEqual([]);
  });

  it('puts a text back where it was typed, over what is stored there, as an edit of that place alone', () => {
    const flow = base();
    const { mine, refused } = edited(
      flow,
      { updateNodes: [{ id: 'result', config: { returnValues: [{ id: 'r0', text: 'Mine: {{nodes.ask.output}}' }] } }] },
      { flow: { tool: { whenToUse: 'for questions' } } },
      { flow: { notes: flow.notes.map((n) => ({ ...n, text: `${n.text}!` })) }, notesBase: flow.notes },
    );
    const [output, note1, note2, tool] = unsavedText(mine, flow, refused);
    expect(output?.place).toEqual({ kind: 'node', id: 'result', path: 'returnValues.0.text' });
    expect(putBack(flow, output).nodes.find((n) => n.id === 'result')?.config).toEqual({
      returnValues: [{ id: 'r0', text: 'Mine: {{nodes.ask.output}}' }],
    });
    expect(putBackChange(flow, tool!)).toEqual({ flow: { tool: { whenToUse: 'for questions' } } });
    expect(putBack(flow, note2).notes.map((n) => n.text)).toEqual(['first', 'second!']);
    expect(note1?.text).toBe('first!');
  });

  it("merges the person's change into the other window's when it knows what the person started from", () => {
    const prompt = ['You answer support tickets.', 'Be brief.', '', '{{inputs.ticket}}'].join('\n');
    const flow = base();
    const before: Flow = {
      ...flow,
      nodes: flow.nodes.map((n) => (n.id === 'ask' ? { ...n, config: { ...n.config, prompt } } : n)),
      notes: flow.notes.map((n) => (n.id === 'note_1' ? { ...n, text: 'first\nline two\nline three' } : n)),
    };
    const ask = before.nodes[1]!;
    const note = (text: string) => before.notes.map((n) => (n.id === 'note_1' ? { ...n, text } : n));
    const { mine, refused } = edited(
      before,
      { updateNodes: [{ id: 'ask', config: { ...ask.config, prompt: prompt.replace('You answer', 'You triage') } }] },
      { flow: { notes: note('first!\nline two\nline three'), description: 'Mine' }, notesBase: before.notes },
    );
    // Meanwhile the other window changed the prompt's last line, the note's last line and the description.
    const stored: Flow = {
      ...before,
      nodes: before.nodes.map((n) =>
        n.id === 'ask' ? { ...n, config: { ...n.config, prompt: prompt.replace('{{', 'Ticket: {{') } } : n,
      ),
      notes: note('first\nline two\nline 3'),
      description: 'Theirs',
    };
    const listed = unsavedText(mine, stored, refused, before);
    expect(listed.map(({ where, base }) => ({ where, base }))).toEqual([
      { where: 'ask · prompt', base: prompt },
      { where: 'sticky note note_1', base: 'first\nline two\nline three' },
      { where: 'flow settings · description', base: 'Old description' },
    ]);
    const [askPrompt, noteText, description] = listed;
    const back = putBack(putBack(putBack(stored, askPrompt), noteText), description);
    expect(back.nodes.find((n) => n.id === 'ask')?.config).toMatchObject({
      prompt: ['You triage support tickets.', 'Be brief.', '', 'Ticket: {{inputs.ticket}}'].join('\n'),
    });
    expect(back.notes[0]?.text).toBe('first!\nline two\nline 3');
    // One line each changed: the person's replaces theirs, and the toast says so.
    expect(back.description).toBe('Mine');
    expect(putBackPlan(stored, askPrompt!)?.text).toEqual({ text: expect.any(String), merged: true, replaced: 0 });
    expect(putBackPlan(stored, description!)?.text).toEqual({ text: 'Mine', merged: true, replaced: 1 });
    // Without the flow it started from, a text is put back as typed.
    const [unknownBase] = unsavedText(mine, stored, refused);
    expect(unknownBase?.base).toBeUndefined();
    expect(putBack(stored, unknownBase).nodes.find((n) => n.id === 'ask')?.config).toMatchObject({
      prompt: prompt.replace('You answer', 'You triage'),
    });
    expect(putBackPlan(stored, unknownBase!)?.text).toEqual({ text: expect.any(String), merged: false, replaced: 0 });
  });

  it('puts nothing back where the place is gone or already holds the text', () => {
    const flow = base();
    const { mine, refused } = edited(flow, {
      updateNodes: [{ id: 'result', config: { returnValues: [{ id: 'r0', text: 'Mine' }] } }],
      flow: { description: 'Mine too' },
    });
    const [output, description] = unsavedText(mine, flow, refused);
    // The other window emptied the list of return values, and removed the node.
    const emptied = {
      ...flow,
      nodes: flow.nodes.map((n) => (n.id === 'result' ? { ...n, config: { returnValues: [] } } : n)),
    };
    expect(putBackChange(emptied, output!)).toBeUndefined();
    expect(putBackChange({ ...flow, nodes: flow.nodes.filter((n) => n.id !== 'result') }, output!)).toBeUndefined();
    expect(putBackChange({ ...flow, description: 'Mine too' }, description!)).toBeUndefined();
    expect(putBackChange(flow, description!)).toEqual({ flow: { description: 'Mine too' } });
  });

  it('lists the text typed in a node the other window removed meanwhile, to copy: there is no place to put it back', () => {
    const flow = base();
    const node = flow.nodes[1]!;
    const { mine, refused } = edited(flow, {
      updateNodes: [{ id: 'ask', config: { ...node.config, prompt: 'Typed in a node gone elsewhere' } }],
    });
    const stored = { ...flow, nodes: flow.nodes.filter((n) => n.id !== 'ask') };
    const found = unsavedText(mine, stored, refused);
    expect(shown(found)).toEqual([
      { where: 'ask (no longer in the flow) · prompt', text: 'Typed in a node gone elsewhere' },
      { where: 'ask (no longer in the flow) · system', text: 'Be brief' },
    ]);
    expect(found.map((item) => putBackChange(stored, item))).toEqual([undefined, undefined]);
  });

  it('lists every text the refused edits touched when the flow could not be reloaded, with nothing said to be gone', () => {
    const flow = base();
    const node = flow.nodes[1]!;
    const { mine, refused } = edited(flow, {
      updateNodes: [{ id: 'ask', config: { ...node.config, prompt: 'Typed before Flowbench stopped' } }],
    });
    expect(shown(unsavedText(mine, undefined, refused))).toEqual([
      { where: 'ask · prompt', text: 'Typed before Flowbench stopped' },
      { where: 'ask · system', text: 'Be brief' },
    ]);
  });

  it('names two nodes that share a label by their ids too, so each text can be told where it goes', () => {
    const flow = base();
    const { mine, refused } = edited(flow, {
      updateNodes: [
        { id: 'ask', label: 'Step', config: { prompt: 'First prompt' } },
        { id: 'result', label: 'Step' },
      ],
    });
    expect(shown(unsavedText(mine, flow, refused))).toEqual([
      { where: 'Step (ask) · label', text: 'Step' },
      { where: 'Step (ask) · prompt', text: 'First prompt' },
      { where: 'Step (result) · label', text: 'Step' },
    ]);
  });

  describe('a node the refused edits added', () => {
    /** A node as the editor adds it: at a place on the canvas, with an id of `<type>_<n>`. */
    const node = (id: string, prompt: string) => ({
      ...FlowSchema.parse(buildFlow({ nodes: [llm(id, prompt)], edges: [] })).nodes[0]!,
      position: { x: 400, y: 200 },
    });
    const edge = (id: string, source: string, target: string) => ({
      id,
      source,
      sourcePort: 'out',
      target,
      targetPort: 'in',
    });

    /**
     * Two nodes the person added, the second reading the first, refused because the other
     * window took llm_1: what is listed, and the flow as stored.
     */
    const readerAndSource = (edges: ReturnType<typeof edge>[]) => {
      const { mine, refused } = edited(base(), {
        addNodes: [
          node('llm_1', 'First'),
          { ...node('llm_2', 'Then {{nodes.llm_1.output}}'), position: { x: 700, y: 200 } },
        ],
        addEdges: edges,
      });
      const stored = applyChangeSet(base(), ChangeSetSchema.parse({ addNodes: [node('llm_1', 'Theirs')] }));
      return { listed: unsavedText(mine, stored, refused), stored };
    };

    it('is put back whole, at its id and place, with its connections to the nodes there', () => {
      const flow = base();
      const { mine, refused } = edited(flow, {
        addNodes: [node('llm_1', 'Summarize {{nodes.ask.output}}')],
        addEdges: [edge('e3', 'ask', 'llm_1')],
      });
      const [item, ...rest] = unsavedText(mine, flow, refused);
      expect(rest).toEqual([]);
      expect(item?.where).toBe('llm_1 (added, not saved) · prompt');
      const changes = putBackChange(flow, item!);
      expect(changes).toEqual({
        addNodes: [node('llm_1', 'Summarize {{nodes.ask.output}}')],
        addEdges: [edge('e3', 'ask', 'llm_1')],
      });
      const back = applyChangeSet(flow, ChangeSetSchema.parse(changes));
      expect(back.nodes.find((n) => n.id === 'llm_1')).toEqual(node('llm_1', 'Summarize {{nodes.ask.output}}'));
      // Once it is back there is nothing left to put back.
      expect(putBackChange(back, item!)).toBeUndefined();
    });

    it("takes a free id, beside the other window's node, when that node took its id; theirs is left as it is", () => {
      const flow = base();
      const { mine, refused } = edited(flow, {
        addNodes: [node('llm_1', 'Mine')],
        addEdges: [edge('e3', 'ask', 'llm_1')],
      });
      // The other window added its own llm_1 (the next free id there too), connected by its own e3.
      const stored = applyChangeSet(
        flow,
        ChangeSetSchema.parse({ addNodes: [node('llm_1', 'Theirs')], addEdges: [edge('e3', 'input', 'llm_1')] }),
      );
      const [item] = unsavedText(mine, stored, refused);
      expect(item?.where).toBe('llm_1 (added, not saved) · prompt');
      const back = putBack(stored, item);
      expect(back.nodes.find((n) => n.id === 'llm_1')?.config.prompt).toBe('Theirs');
      expect(back.nodes.find((n) => n.id === 'llm_2')).toMatchObject({
        config: { prompt: 'Mine' },
        position: { x: 440, y: 240 },
      });
      // The connection's id was taken by the other window's too: it gets one of its own.
      expect(back.edges.filter((e) => e.target.startsWith('llm_'))).toEqual([
        edge('e3', 'input', 'llm_1'),
        { ...edge('e3', 'ask', 'llm_2'), id: expect.stringMatching(/^e_/) },
      ]);
    });

    it('connects to another node the person added only once that one is back', () => {
      const flow = base();
      const { mine, refused } = edited(flow, {
        addNodes: [node('llm_1', 'First'), node('llm_2', 'Then {{nodes.llm_1.output}}')],
        addEdges: [edge('e3', 'ask', 'llm_1'), edge('e4', 'llm_1', 'llm_2')],
      });
      const [first, second] = unsavedText(mine, flow, refused);
      expect(second?.where).toBe('llm_2 (added, not saved) · prompt');
      expect(putBackChange(flow, second!)?.addEdges).toEqual([]);
      // Nor to a node of that id the other window added: it is not the one the person connected.
      const theirs = applyChangeSet(flow, ChangeSetSchema.parse({ addNodes: [node('llm_1', 'Theirs')] }));
      expect(putBackChange(theirs, second!)?.addEdges).toEqual([]);
      const withFirst = putBack(flow, first);
      expect(putBackChange(withFirst, second!)?.addEdges).toEqual([edge('e4', 'llm_1', 'llm_2')]);
    });

    it("follows the ids the person's nodes take when put back: references and connections between them", () => {
      const {
        listed: [first, second],
        stored,
      } = readerAndSource([edge('e3', 'llm_1', 'llm_2')]);
      const prompts = (f: Flow) =>
        Object.fromEntries(
          f.nodes.filter((n) => n.type === 'llm' && n.id !== 'ask').map((n) => [n.id, n.config.prompt]),
        );

      // The first back first: it takes llm_2, so the second takes llm_3 and reads llm_2.
      const firstThenSecond = putBack(putBack(stored, first), second);
      expect(prompts(firstThenSecond)).toEqual({
        llm_1: 'Theirs',
        llm_2: 'First',
        llm_3: 'Then {{nodes.llm_2.output}}',
      });
      expect(firstThenSecond.edges.at(-1)).toMatchObject({ source: 'llm_2', target: 'llm_3' });

      // Put back by itself, the second under its own id: the first, put back as llm_3, takes its reference and connection with it.
      const secondThenFirst = putBack(putBack(stored, second), first);
      expect(prompts(secondThenFirst)).toEqual({
        llm_1: 'Theirs',
        llm_2: 'Then {{nodes.llm_3.output}}',
        llm_3: 'First',
      });
      expect(secondThenFirst.edges.at(-1)).toMatchObject({ source: 'llm_3', target: 'llm_2' });
      // The second, its reference rewritten, is still known as back: not offered again.
      expect(putBackChange(secondThenFirst, second!)).toBeUndefined();
    });

    it("brings back the nodes it reads that the person added, in the same edit: alone, it would read the other window's node", () => {
      const { listed, stored } = readerAndSource([edge('e3', 'ask', 'llm_1'), edge('e4', 'llm_1', 'llm_2')]);
      const [first, second] = listed;
      const changes = putBackChange(stored, second!, listed);
      // The first comes first, beside the other window's llm_1, under an id the second does not need;
      // the second, last, keeps its own id, reads the first where it is and connects to it.
      expect(changes?.addNodes?.map((n) => [n.id, n.config?.prompt, n.position])).toEqual([
        ['llm_3', 'First', { x: 440, y: 240 }],
        ['llm_2', 'Then {{nodes.llm_3.output}}', { x: 700, y: 200 }],
      ]);
      const back = putBack(stored, second, listed);
      expect(back.edges.slice(-2)).toMatchObject([
        { source: 'ask', target: 'llm_3' },
        { source: 'llm_3', target: 'llm_2' },
      ]);
      // Both are back: neither is offered again.
      expect(putBackChange(back, first!, listed)).toBeUndefined();
      expect(putBackChange(back, second!, listed)).toBeUndefined();
      // Nothing it reads is missing (the flow said no to these for another reason): it is put back alone, as before.
      const alone = putBackChange(base(), first!, listed);
      expect(alone?.addNodes?.map((n) => n.id)).toEqual(['llm_1']);
    });

    it('follows a reference between them that has no connection yet', () => {
      const {
        listed: [first, second],
        stored,
      } = readerAndSource([]);
      const both = putBack(putBack(stored, second), first);
      expect(both.nodes.find((n) => n.id === 'llm_2')?.config.prompt).toBe('Then {{nodes.llm_3.output}}');
      expect(both.edges).toEqual(stored.edges);
    });

    it("is listed with nothing typed in it, to put back whole beside the other window's node of its id", () => {
      const flow = base();
      const empty = { ...node('llm_1', ''), label: undefined };
      const { mine, refused } = edited(flow, { addNodes: [empty], addEdges: [edge('e3', 'ask', 'llm_1')] });
      // The other window added its own empty llm_1, elsewhere on the canvas.
      const theirs = { ...empty, position: { x: 0, y: 400 } };
      const stored = applyChangeSet(flow, ChangeSetSchema.parse({ addNodes: [theirs] }));
      const found = unsavedText(mine, stored, refused);
      expect(shown(found)).toEqual([{ where: 'llm_1 (added, not saved)', text: '' }]);
      const back = putBack(stored, found[0]);
      expect(back.nodes.find((n) => n.id === 'llm_2')).toMatchObject({ type: 'llm', position: { x: 440, y: 240 } });
      expect(back.edges.at(-1)).toMatchObject({ source: 'ask', target: 'llm_2' });
      // Refused, not clashing (the flow said no): listed too, put back at its own id.
      expect(shown(unsavedText(mine, flow, refused))).toEqual([{ where: 'llm_1 (added, not saved)', text: '' }]);
    });

    it('are put back all at once, as one edit, with the ids they took', () => {
      const { listed, stored } = readerAndSource([edge('e3', 'ask', 'llm_1'), edge('e4', 'llm_1', 'llm_2')]);
      const all = putBackAllAdded(stored, listed);
      expect(all?.ids).toEqual(
        new Map([
          ['llm_1', 'llm_3'],
          ['llm_2', 'llm_2'],
        ]),
      );
      const back = applyChangeSet(stored, ChangeSetSchema.parse(all?.changes));
      expect(back.nodes.find((n) => n.id === 'llm_2')?.config.prompt).toBe('Then {{nodes.llm_3.output}}');
      expect(back.nodes.find((n) => n.id === 'llm_1')?.config.prompt).toBe('Theirs');
      expect(putBackAllAdded(back, listed)).toBeUndefined();
    });

    it('are all the refused edits did only when nothing else was changed with them', () => {
      const add = ChangeSetSchema.parse({ addNodes: [node('llm_1', '')], addEdges: [edge('e3', 'ask', 'llm_1')] });
      const typed = ChangeSetSchema.parse({ updateNodes: [{ id: 'llm_1', config: { prompt: 'Mine' } }] });
      const removed = ChangeSetSchema.parse({ removeEdges: ['e3'], removeNodes: ['llm_1'] });
      expect(onlyAddedNodes([add, typed])).toBe(true);
      expect(onlyAddedNodes([add, removed])).toBe(true);
      for (const other of [
        { updateNodes: [{ id: 'ask', config: { prompt: 'Read {{nodes.llm_1.output}}' } }] },
        { addEdges: [edge('e9', 'input', 'result')] },
        { removeEdges: ['e1'] },
        { flow: { description: 'Mine' } },
      ]) {
        expect(onlyAddedNodes([add, ChangeSetSchema.parse(other)])).toBe(false);
      }
      expect(onlyAddedNodes([typed])).toBe(false);
    });

    it('knows refused moves of cards another window removed, and where the cards still there were put', () => {
      const flow = base();
      const drag = ChangeSetSchema.parse({
        updateNodes: [
          { id: 'ask', position: { x: 10, y: 300 } },
          { id: 'result', position: { x: 400, y: 300 } },
        ],
      });
      const removed = applyChangeSet(flow, ChangeSetSchema.parse({ removeNodes: ['ask'], removeEdges: ['e0', 'e1'] }));
      expect(movesOfRemoved([drag], removed)).toEqual({
        gone: ['ask'],
        moves: [{ id: 'result', position: { x: 400, y: 300 } }],
      });
      // Every card still there, or more than moves refused: not this case.
      expect(movesOfRemoved([drag], flow)).toBeUndefined();
      const typed = ChangeSetSchema.parse({ updateNodes: [{ id: 'result', config: { returnValues: [] } }] });
      expect(movesOfRemoved([drag, typed], removed)).toBeUndefined();
    });

    it('knows a refused connection another window made too: the same ports joined under another id', () => {
      const flow = base();
      const join = ChangeSetSchema.parse({ addEdges: [edge('e_mine', 'input', 'result')] });
      const stored = applyChangeSet(flow, ChangeSetSchema.parse({ addEdges: [edge('e_theirs', 'input', 'result')] }));
      expect(onlyJoinsThereNow([join], stored)).toBe(true);
      // Not joined there, or refused with other edits: those are listed as before.
      expect(onlyJoinsThereNow([join], flow)).toBe(false);
      const typed = ChangeSetSchema.parse({ updateNodes: [{ id: 'ask', config: { prompt: 'Mine' } }] });
      expect(onlyJoinsThereNow([join, typed], stored)).toBe(false);
      expect(onlyJoinsThereNow([typed], stored)).toBe(false);
    });

    it('lists nothing when it was stored after all, as typed (its answer lost on the way)', () => {
      const flow = base();
      const { mine, refused } = edited(flow, { addNodes: [node('llm_1', 'Mine')] });
      expect(unsavedText(mine, mine, refused)).toEqual([]);
    });
  });
});
