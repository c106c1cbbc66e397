import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dumpDatabase } from '../../tests/helpers/db-dump';
import { generatedFlow, smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { DEFAULT_MIGRATIONS_FOLDER, openDatabase, type FlowbenchDatabase } from './database';
import { FlowRepository } from './flow-repository';

const tempDir = useTempDir();
let store: FlowbenchDatabase;
let flows: FlowRepository;
let path: string;

beforeEach(() => {
  path = join(tempDir(), 'flows.db');
  store = openDatabase(path);
  flows = new FlowRepository(store);
});
afterEach(() => store.close());

describe('FlowRepository', () => {
  it('stores a flow as rows and loads it back', () => {
    const created = flows.create(smallFlow());
    expect(flows.get('small')).toEqual(created);
    expect(store.sqlite.prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(3);
    expect(flows.list()).toEqual([
      expect.objectContaining({ id: 'small', toolName: 'small_flow', nodeCount: 3, edgeCount: 2, enabled: true }),
    ]);
  });

  it('gives an imported flow a fresh id when its id is taken', () => {
    flows.create(smallFlow());
    const copy = flows.create(smallFlow({ tool: { name: 'other_tool' } }));
    expect(copy.id).not.toBe('small');
    expect(copy.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('resolves flows by id, tool name, name and id prefix', () => {
    const copy = flows.create(smallFlow({ id: 'abcdef123456', tool: { name: 'x_tool' }, name: 'Shared' }));
    flows.create(smallFlow({ id: 'zzz', tool: { name: 'y_tool' }, name: 'Shared' }));
    expect(flows.resolve('x_tool').id).toBe(copy.id);
    expect(flows.resolve('abcdef').id).toBe(copy.id);
    expect(() => flows.resolve('Shared')).toThrow(expect.objectContaining({ code: 'AMBIGUOUS_FLOW' }));
    expect(() => flows.resolve('nothing')).toThrow(expect.objectContaining({ code: 'FLOW_NOT_FOUND' }));
  });

  it('refuses an invalid flow and writes nothing', () => {
    flows.create(smallFlow());
    const before = dumpDatabase(path);
    const bad = smallFlow({
      id: 'bad',
      tool: { name: 'small_flow' },
      edges: [{ id: 'e', source: 'greet', target: 'ghost' }],
    });
    expect(() => flows.create(bad)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        data: {
          problems: expect.arrayContaining([
            expect.objectContaining({ code: 'DUPLICATE_TOOL_NAME' }),
            expect.objectContaining({ code: 'DANGLING_EDGE' }),
          ]),
        },
      }),
    );
    expect(dumpDatabase(path)).toEqual(before);
  });

  it('moves one node by writing exactly one row', () => {
    flows.create(generatedFlow(200));
    const result = flows.applyChanges('generated', { updateNodes: [{ id: 'n7', position: { x: 5, y: 6 } }] });
    // A move keeps the node's revision (isMoveOnly).
    expect(result).toEqual({ rowsWritten: 1, nodeRevs: {} });
    expect(flows.getNode('generated', 'n7')?.position).toEqual({ x: 5, y: 6 });
  });

  it('applies a structural change in one transaction', () => {
    flows.create(smallFlow());
    flows.applyChanges('small', {
      flow: { name: 'Renamed', tool: { description: 'Says things' } },
      removeEdges: ['e2'],
      addNodes: [
        { id: 'shout', type: 'template', position: { x: 1, y: 2 }, config: { template: '{{nodes.greet.output}}!' } },
      ],
      addEdges: [
        { id: 'e3', source: 'greet', target: 'shout' },
        { id: 'e4', source: 'shout', target: 'result' },
      ],
      updateNodes: [{ id: 'result', config: { returnValues: [{ id: 'r', text: '{{nodes.shout.output}}' }] } }],
    });
    const flow = flows.get('small');
    expect(flow.name).toBe('Renamed');
    expect(flow.tool).toMatchObject({ name: 'small_flow', description: 'Says things' });
    expect(flow.nodes.map((n) => n.id)).toEqual(['input', 'greet', 'result', 'shout']);
    expect(flow.edges.map((e) => `${e.source}>${e.target}`)).toEqual(['input>greet', 'greet>shout', 'shout>result']);
    expect(flow.nodes[2]?.config).toEqual({
      mode: 'return_values',
      returnValues: [{ id: 'r', text: '{{nodes.shout.output}}' }],
      fields: [],
    });
  });

  it('refuses a change that would create a cycle and keeps the database as it was', () => {
    flows.create(smallFlow());
    const before = dumpDatabase(path);
    expect(() =>
      flows.applyChanges('small', {
        addNodes: [{ id: 'loop', type: 'template', config: { template: 'x' } }],
        addEdges: [
          { id: 'a', source: 'greet', target: 'loop' },
          { id: 'b', source: 'loop', target: 'greet' },
        ],
      }),
    ).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.stringContaining('cycle') }));
    expect(dumpDatabase(path)).toEqual(before);
  });

  it('lets a draft keep an unresolved reference but not a broken config', () => {
    flows.create(smallFlow());
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', config: { template: '{{inputs.later}}' } }] });
    expect(flows.getNode('small', 'greet')?.config).toEqual({ template: '{{inputs.later}}' });
    expect(() => flows.applyChanges('small', { updateNodes: [{ id: 'greet', config: { template: 42 } }] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });

  it('takes nodes being set up (an MCP tool or flow node as the palette adds them, a pattern half typed); publishing refuses them', async () => {
    const { nodeRegistry } = await import('../nodes/registry');
    const { VersionRepository } = await import('./version-repository');
    flows.create(smallFlow());
    const added = (type: string) => ({
      id: `${type}_1`,
      type,
      label: type,
      position: { x: 0, y: 300 },
      config: nodeRegistry.get(type)?.defaults() ?? {},
    });
    flows.applyChanges('small', { addNodes: [added('mcp_tool'), added('flow'), added('condition')] });
    expect(flows.get('small').nodes.map((n) => n.id)).toEqual(
      expect.arrayContaining(['mcp_tool_1', 'flow_1', 'condition_1']),
    );
    // A pattern halfway through being typed.
    const rules = [{ value: '{{inputs.topic}}', path: '$', operator: 'matches', operand: '(ab' }];
    flows.applyChanges('small', { updateNodes: [{ id: 'condition_1', config: { match: 'all', rules } }] });
    expect(flows.getNode('small', 'condition_1')?.config).toMatchObject({ rules });
    expect(() => new VersionRepository(store, flows).publish('small')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        data: {
          problems: [
            expect.objectContaining({ code: 'MISSING_TOOL', nodeId: 'mcp_tool_1' }),
            expect.objectContaining({ code: 'MISSING_FLOW', nodeId: 'flow_1' }),
            expect.objectContaining({ code: 'NODE_SETUP', nodeId: 'condition_1' }),
          ],
        },
      }),
    );
  });

  it("refuses a setting an edit brings that the node's type does not have, but not one its stored node already had", () => {
    flows.create(smallFlow());
    expect(() =>
      flows.applyChanges('small', { updateNodes: [{ id: 'greet', config: { template: 'x', tempalte: 'y' } }] }),
    ).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.stringContaining('config.tempalte') }),
    );
    expect(flows.getNode('small', 'greet')?.config).toEqual({ template: 'About {{inputs.topic}}' });
    // As an earlier Flowbench might have left it: a setting the type no longer has, in the stored row.
    store.sqlite
      .prepare("UPDATE nodes SET config = ? WHERE id = 'greet'")
      .run(JSON.stringify({ template: 'About {{inputs.topic}}', legacy: 1 }));
    // The editor sends the node's config back as it read it, with the edit in it.
    flows.applyChanges('small', {
      updateNodes: [{ id: 'greet', config: { template: 'Edited {{inputs.topic}}', legacy: 1 } }],
    });
    expect(flows.getNode('small', 'greet')?.config).toEqual({ template: 'Edited {{inputs.topic}}' });
  });

  it('detects an edit based on an old revision instead of overwriting it', () => {
    flows.create(smallFlow());
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, label: 'From window A' }] });
    expect(() =>
      flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, label: 'From window B' }] }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
    expect(flows.getNode('small', 'greet')?.label).toBe('From window A');
    expect(() => flows.applyChanges('small', { updateNodes: [{ id: 'gone', label: 'x' }] })).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT' }),
    );
  });

  it('takes a move of a node edited elsewhere, and an edit of a node moved elsewhere: a move keeps the revision', () => {
    flows.create(smallFlow());
    // Window A moves the node (a Layout, a drag); window B, which has not seen that, edits its text.
    const moved = flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, position: { x: 500, y: 40 } }] });
    expect(moved.nodeRevs).toEqual({});
    flows.applyChanges('small', {
      updateNodes: [{ id: 'greet', rev: 1, config: { template: 'From B {{inputs.topic}}' } }],
    });
    // Now B's edit is the newer revision, and A, still at revision 1, moves the node again.
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, position: { x: 600, y: 40 } }] });
    const node = flows.getNode('small', 'greet');
    expect(node?.position).toEqual({ x: 600, y: 40 });
    expect(node?.config).toEqual({ template: 'From B {{inputs.topic}}' });
    // A move does not let A's next text edit, based on revision 1, through over B's.
    expect(() =>
      flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, config: { template: 'From A' } }] }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
    // A move with a text change is an edit like any other, and a node that is gone cannot be moved.
    expect(() =>
      flows.applyChanges('small', {
        updateNodes: [{ id: 'greet', rev: 1, position: { x: 0, y: 0 }, label: 'Moved and renamed' }],
      }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
    expect(() => flows.applyChanges('small', { updateNodes: [{ id: 'gone', position: { x: 0, y: 0 } }] })).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT' }),
    );
  });

  it('merges two windows changing different settings of one node, and refuses one setting changed in both', () => {
    const [input, , result] = smallFlow().nodes;
    const ask = { id: 'greet', type: 'llm', config: { prompt: 'About {{inputs.topic}}' } };
    flows.create(smallFlow({ nodes: [input!, ask, result!] }));
    const read = flows.getNode('small', 'greet')!;
    const base = { config: read.config, version: read.version };
    // Window A sets the temperature; window B, still at revision 1, writes the prompt and sends its whole config.
    flows.applyChanges('small', {
      updateNodes: [{ id: 'greet', rev: 1, config: { ...read.config, temperature: 0.2 } }],
    });
    const written = flows.applyChanges('small', {
      updateNodes: [
        {
          id: 'greet',
          rev: 1,
          config: { ...read.config, prompt: 'In French' },
          maxAttempts: 3,
          base: { ...base, maxAttempts: null },
        },
      ],
    });
    const both = { ...read.config, prompt: 'In French', temperature: 0.2 };
    expect(flows.getNode('small', 'greet')).toMatchObject({ config: both, maxAttempts: 3 });
    // B's answer brings A's temperature, for B to show, and the revision after both.
    expect(written.nodeRevs).toEqual({ greet: 3 });
    expect(written.merged).toEqual([expect.objectContaining({ id: 'greet', config: both })]);
    // B's next edit, queued before that answer, names revision 3 but was made on a config without A's
    // temperature: the setting it did not touch stays A's instead of going back.
    const next = flows.applyChanges('small', {
      updateNodes: [
        {
          id: 'greet',
          rev: 3,
          config: { ...read.config, prompt: 'In French, briefly' },
          base: { config: { ...read.config, prompt: 'In French' }, version: 1 },
        },
      ],
    });
    expect(next.merged).toBeUndefined();
    expect(flows.getNode('small', 'greet')?.config).toEqual({ ...both, prompt: 'In French, briefly' });
    // Both windows set the temperature, differently: refused, nothing written.
    const before = dumpDatabase(path);
    expect(() =>
      flows.applyChanges('small', {
        updateNodes: [{ id: 'greet', rev: 1, config: { ...read.config, temperature: 1.5 }, base }],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'EDIT_CONFLICT',
        message:
          'node "greet" was changed elsewhere (revision 4, edit based on 1): its setting "temperature" was changed by both; reload to see it',
      }),
    );
    expect(dumpDatabase(path)).toEqual(before);
  });

  it('refuses to remove a node changed since the removal was based on it, but not one only moved', () => {
    flows.create(smallFlow());
    // Window A writes in the node; window B, still at revision 1, removes it: refused, nothing removed.
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, config: { template: 'From A' } }] });
    const before = dumpDatabase(path);
    expect(() => flows.applyChanges('small', { removeNodes: ['greet'], removeRevs: { greet: 1 } })).toThrow(
      expect.objectContaining({
        code: 'EDIT_CONFLICT',
        message:
          'node "greet" was changed elsewhere before this removal (revision 2, removal based on 1); reload to see it',
      }),
    );
    expect(dumpDatabase(path)).toEqual(before);
    // Moved meanwhile (the revision stays), or removed at the revision it has: removed.
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, position: { x: 9, y: 9 } }] });
    flows.applyChanges('small', { removeNodes: ['greet'], removeRevs: { greet: 2 } });
    expect(flows.getNode('small', 'greet')).toBeUndefined();
    // Without revisions (an API client that sends none), or for a node already gone, as before.
    flows.applyChanges('small', { removeNodes: ['result'] });
    flows.applyChanges('small', { removeNodes: ['greet'], removeRevs: { greet: 1 } });
    expect(flows.get('small').nodes.map((n) => n.id)).toEqual(['input']);
  });

  it('merges sticky notes edited in two windows note by note, and refuses one note edited in both', () => {
    const note = (id: string, text: string, x = 0) => ({ id, text, position: { x, y: 0 } });
    flows.create(smallFlow({ notes: [note('plan', 'Plan'), note('todo', 'To do')] }));
    const base = flows.get('small').notes;
    // Window A writes in one note, window B (still showing the base) in the other: both are kept.
    flows.applyChanges('small', { flow: { notes: [note('plan', 'Plan: ask for JSON'), base[1]!] }, notesBase: base });
    flows.applyChanges('small', {
      flow: { notes: [base[0]!, note('todo', 'To do: retries'), note('idea', 'New idea', 300)] },
      notesBase: base,
    });
    expect(flows.get('small').notes.map((n) => [n.id, n.text])).toEqual([
      ['plan', 'Plan: ask for JSON'],
      ['todo', 'To do: retries'],
      ['idea', 'New idea'],
    ]);
    // Both windows wrote in the same note: the second is refused, and nothing of it is stored.
    const before = dumpDatabase(path).flows;
    expect(() =>
      flows.applyChanges('small', { flow: { notes: [note('plan', 'Plan B'), base[1]!] }, notesBase: base }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining('"plan"') }));
    expect(dumpDatabase(path).flows).toEqual(before);
    // A note removed in one window and left alone in the other stays removed.
    const now = flows.get('small').notes;
    flows.applyChanges('small', { flow: { notes: now.filter((n) => n.id !== 'idea') }, notesBase: now });
    flows.applyChanges('small', { flow: { notes: [...now.slice(0, 2), { ...now[2]! }] }, notesBase: now });
    expect(flows.get('small').notes.map((n) => n.id)).toEqual(['plan', 'todo']);
    // An API client that sends no base has its list stored as sent.
    flows.applyChanges('small', { flow: { notes: [note('only', 'Only this')] } });
    expect(flows.get('small').notes.map((n) => n.id)).toEqual(['only']);
  });

  it("refuses an edit of a flow field another window changed since, and keeps two windows' edits of different fields", () => {
    flows.create(smallFlow());
    const base = flows.get('small');
    const started = { name: base.name, description: base.description, tool: base.tool };
    // Window A renames the flow; window B, started before, writes the description: both are kept.
    flows.applyChanges('small', { flow: { name: 'Renamed in A' }, fieldsBase: { name: started.name } });
    flows.applyChanges('small', {
      flow: { description: 'Written in B', tool: { description: 'Tool text from B' } },
      fieldsBase: { description: started.description, tool: started.tool },
    });
    expect(flows.get('small')).toMatchObject({
      name: 'Renamed in A',
      description: 'Written in B',
      tool: { description: 'Tool text from B' },
    });
    // Window B renames too, from the name it started with: refused, and nothing of the edit is stored.
    const before = dumpDatabase(path).flows;
    expect(() =>
      flows.applyChanges('small', {
        flow: { name: 'Renamed in B', description: 'Also this' },
        fieldsBase: { name: started.name, description: 'Written in B' },
      }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining("flow's name") }));
    expect(dumpDatabase(path).flows).toEqual(before);
    // The same tool setting changed by another window is refused by its name; the same value twice is not a clash.
    expect(() =>
      flows.applyChanges('small', { flow: { tool: { description: 'Other' } }, fieldsBase: { tool: started.tool } }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining('tool description') }));
    flows.applyChanges('small', { flow: { name: 'Renamed in A' }, fieldsBase: { name: started.name } });
    // Without a base the field is stored as sent.
    flows.applyChanges('small', { flow: { name: 'Plain API' } });
    expect(flows.get('small').name).toBe('Plain API');
  });

  it("merges the tool's description two windows wrote in different lines, and refuses the same line", () => {
    flows.create(smallFlow());
    const lines = ['Greets a person.', 'Use it when they say hello.', 'Returns one sentence.'];
    flows.applyChanges('small', { flow: { tool: { description: lines.join('\n') } } });
    const started = flows.get('small').tool;
    flows.applyChanges('small', {
      flow: { tool: { description: ['Greets a person by name.', ...lines.slice(1)].join('\n') } },
      fieldsBase: { tool: started },
    });
    const result = flows.applyChanges('small', {
      flow: { tool: { description: [...lines.slice(0, 2), 'Returns one short sentence.'].join('\n') } },
      fieldsBase: { tool: started },
    });
    const merged = ['Greets a person by name.', 'Use it when they say hello.', 'Returns one short sentence.'].join(
      '\n',
    );
    expect(flows.get('small').tool.description).toBe(merged);
    // The editor is given what it sent merged, to show.
    expect(result.mergedFlow).toEqual({ tool: { description: merged } });
    const before = dumpDatabase(path).flows;
    expect(() =>
      flows.applyChanges('small', {
        flow: { tool: { description: ['Says hello.', ...lines.slice(1)].join('\n') } },
        fieldsBase: { tool: started },
      }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining('tool description') }));
    expect(dumpDatabase(path).flows).toEqual(before);
  });

  it('keeps the test cases two windows added at once under one id, the later renumbered', () => {
    flows.create(smallFlow());
    const testCase = (n: number, topic: string) => ({
      id: `case_${n}`,
      name: `Case ${n}`,
      inputs: { topic },
      expectations: [],
    });
    flows.applyChanges('small', { flow: { tests: [testCase(1, 'cats')] } });
    const started = flows.get('small').tests;
    flows.applyChanges('small', { flow: { tests: [...started, testCase(2, 'dogs')] }, fieldsBase: { tests: started } });
    const result = flows.applyChanges('small', {
      flow: { tests: [...started, testCase(2, 'birds')] },
      fieldsBase: { tests: started },
    });
    const stored = [testCase(1, 'cats'), testCase(2, 'dogs'), testCase(3, 'birds')];
    expect(flows.get('small').tests).toEqual(stored);
    // The later window is given the list with its case renumbered, to show.
    expect(result.mergedFlow).toEqual({ tests: stored });
    // A case under an id a person chose is not renumbered: both adding "smoke" differently is refused.
    const chosen = (topic: string) => ({ ...testCase(9, topic), id: 'smoke', name: 'Smoke' });
    const now = flows.get('small').tests;
    flows.applyChanges('small', { flow: { tests: [...now, chosen('a')] }, fieldsBase: { tests: now } });
    expect(() =>
      flows.applyChanges('small', { flow: { tests: [...now, chosen('b')] }, fieldsBase: { tests: now } }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining('tests') }));
  });

  it('merges the parameters two windows changed item by item, and refuses one both changed', () => {
    flows.create(smallFlow());
    const started = flows.get('small').parameters;
    const [first] = started;
    const added = { name: 'tone', type: 'string', required: false, description: 'How to sound' } as const;
    flows.applyChanges('small', {
      flow: { parameters: [{ ...first!, description: 'Who to greet' }] },
      fieldsBase: { parameters: started },
    });
    const result = flows.applyChanges('small', {
      flow: { parameters: [...started, added] },
      fieldsBase: { parameters: started },
    });
    expect(flows.get('small').parameters).toEqual([{ ...first!, description: 'Who to greet' }, added]);
    expect(result.mergedFlow).toEqual({ parameters: [{ ...first!, description: 'Who to greet' }, added] });
    // Nothing merged: nothing to show.
    expect(
      flows.applyChanges('small', { flow: { name: 'Hi' }, fieldsBase: { name: 'Small flow' } }).mergedFlow,
    ).toBeUndefined();
    expect(() =>
      flows.applyChanges('small', {
        flow: { parameters: [{ ...first!, description: 'The name' }] },
        fieldsBase: { parameters: started },
      }),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT', message: expect.stringContaining('parameters') }));
  });

  it('opens a flow with the revision of each node, and names a missing flow', () => {
    flows.create(smallFlow());
    flows.applyChanges('small', { updateNodes: [{ id: 'greet', rev: 1, label: 'Edited' }] });
    const { flow, revs } = flows.load('small');
    expect(flow.nodes.find((n) => n.id === 'greet')?.label).toBe('Edited');
    expect(revs).toEqual({ input: 1, greet: 2, result: 1 });
    expect(() => flows.load('nope')).toThrow(expect.objectContaining({ code: 'FLOW_NOT_FOUND' }));
  });

  it('refuses a malformed change set with a clear message', () => {
    flows.create(smallFlow());
    expect(() =>
      flows.applyChanges('small', { updateNodes: [{ id: 'greet', position: { x: 'left' } }] } as never),
    ).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('updateNodes.0.position.x'),
      }),
    );
    expect(() => flows.applyChanges('nope', {})).toThrow(expect.objectContaining({ code: 'FLOW_NOT_FOUND' }));
  });

  it('refuses renaming the tool to a name another flow uses', () => {
    flows.create(smallFlow());
    flows.create(smallFlow({ id: 'two', tool: { name: 'second' } }));
    expect(() => flows.applyChanges('two', { flow: { tool: { name: 'small_flow' } } })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('already uses the tool name'),
      }),
    );
  });

  it('deletes a flow with its nodes and edges', () => {
    flows.create(smallFlow());
    flows.delete('small');
    expect(flows.list()).toEqual([]);
    expect(store.sqlite.prepare('SELECT count(*) FROM nodes').pluck().get()).toBe(0);
    expect(store.sqlite.prepare('SELECT count(*) FROM edges').pluck().get()).toBe(0);
    expect(() => flows.delete('small')).toThrow(expect.objectContaining({ code: 'FLOW_NOT_FOUND' }));
  });
});

describe('sticky notes', () => {
  const note = {
    id: 'note_1',
    text: 'Why this prompt',
    position: { x: 10, y: 20 },
    width: 300,
    height: 120,
    color: 'blue',
  } as const;

  it('keeps the notes with the flow; a change that breaks them is refused and writes nothing', () => {
    flows.create(smallFlow());
    flows.applyChanges('small', { flow: { notes: [note] } });
    expect(flows.get('small').notes).toEqual([note]);

    const before = dumpDatabase(path);
    expect(() => flows.applyChanges('small', { flow: { notes: [note, { ...note, text: 'again' }] } })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('two notes have the id "note_1"'),
      }),
    );
    expect(dumpDatabase(path)).toEqual(before);
  });

  it('writes a notes-only change as one row, without the graph check or a new catalogue for clients', () => {
    flows.create(smallFlow());
    const epoch = store.catalogueEpoch.value;
    expect(flows.applyChanges('small', { flow: { notes: [note] } }).rowsWritten).toBe(1);
    expect(store.catalogueEpoch.value).toBe(epoch);
    expect(flows.get('small').notes).toEqual([note]);
    expect(flows.applyChanges('small', { flow: { notes: [] } }).rowsWritten).toBe(1);
    expect(flows.get('small').notes).toEqual([]);
  });

  it('opens a database from before notes: its flows have none, and take them', () => {
    // The migrations up to 0010, as a Flowbench from before notes had them.
    const old = join(tempDir(), 'migrations-before-notes');
    mkdirSync(join(old, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(join(DEFAULT_MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const kept = journal.entries.slice(
      0,
      journal.entries.findIndex((entry) => entry.tag === '0011_notes'),
    );
    expect(kept.at(-1)?.tag).toMatch(/^0010_/);
    writeFileSync(join(old, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: kept }));
    for (const entry of kept)
      copyFileSync(join(DEFAULT_MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(old, `${entry.tag}.sql`));
    const oldPath = join(tempDir(), 'old.db');
    const before = openDatabase(oldPath, { migrationsFolder: old });
    before.sqlite
      .prepare(
        `INSERT INTO flows (id, name, tool_name, tool_annotations, parameters, metadata, created_at, updated_at) VALUES ('f', 'F', 't', '{}', '[]', '{}', 1, 1)`,
      )
      .run();
    before.close();

    const now = openDatabase(oldPath);
    try {
      const repository = new FlowRepository(now);
      expect(repository.get('f').notes).toEqual([]);
      repository.applyChanges('f', { flow: { notes: [note] } });
      expect(repository.get('f').notes).toEqual([note]);
    } finally {
      now.close();
    }
  });
});

describe('publishing', () => {
  it('refuses a tool name another flow still serves from an older published version', async () => {
    const { VersionRepository } = await import('./version-repository');
    const versions = new VersionRepository(store, flows);
    flows.create(smallFlow());
    versions.publish('small');
    flows.applyChanges('small', { flow: { tool: { name: 'renamed_tool' } } });
    flows.create(smallFlow({ id: 'second', tool: { name: 'small_flow' } }));
    expect(() => versions.publish('second')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('still serves the tool name "small_flow"'),
      }),
    );
    versions.publish('small');
    expect(versions.publish('second').version).toBe(1);
    expect(versions.list('small')).toEqual([
      expect.objectContaining({ flowId: 'small', version: 2, toolName: 'renamed_tool', nodeCount: 3 }),
      expect.objectContaining({ flowId: 'small', version: 1, toolName: 'small_flow', nodeCount: 3 }),
    ]);
    expect(versions.list('small')[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(() => versions.list('nope')).toThrow(expect.objectContaining({ code: 'FLOW_NOT_FOUND' }));
  });
});
