import { describe, expect, it } from 'vitest';
import { FlowSchema } from '../model/flow';
import { buildFlow, input, llm, output } from '../../tests/helpers/flow-builder';
import { jsonPathsFor, outputFields } from './output-fields';
import { referencesFor } from './references';

const classify = llm('classify', 'Classify {{inputs.ticket}}', {
  outputFormat: 'json',
  jsonSchema: {
    type: 'object',
    properties: {
      category: { type: 'string', description: 'billing, bug or other' },
      urgency: { type: 'string', enum: ['low', 'high'] },
      tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      'not a key': { type: 'string' },
    },
  },
});
const ask = {
  id: 'confirm',
  type: 'ask',
  config: {
    message: 'Send it?',
    fields: [
      { name: 'send', type: 'boolean' },
      { name: 'note', type: 'string', description: 'why not', required: false },
    ],
  },
};
const flow = FlowSchema.parse(
  buildFlow({
    parameters: [{ name: 'ticket', type: 'string' }],
    nodes: [input(), classify, llm('free', 'Any JSON', { outputFormat: 'json' }), ask, output('{{nodes.free.output}}')],
    edges: ['input>classify', 'classify>free', 'free>confirm', 'confirm>result'],
  }),
);
const node = (id: string) => flow.nodes.find((n) => n.id === id) as (typeof flow.nodes)[number];

describe('outputFields: what the editor knows is inside a node’s JSON output', () => {
  it('reads an LLM’s JSON schema, an array’s first item included, and leaves out keys a template cannot name', () => {
    expect(outputFields(node('classify'))).toEqual([
      { path: ['category'], detail: 'string: billing, bug or other' },
      { path: ['urgency'], detail: 'string: one of "low", "high"' },
      { path: ['tags'], detail: 'array' },
      { path: ['tags', '0', 'name'], detail: 'string' },
    ]);
  });

  it('reads an ask node’s fields as the answer’s keys', () => {
    expect(outputFields(node('confirm'))).toEqual([
      { path: ['send'], detail: 'boolean' },
      { path: ['note'], detail: 'string: why not' },
    ]);
  });

  it('knows nothing of JSON without a schema until a run shows it, then offers what the run gave', () => {
    expect(outputFields(node('free'))).toEqual([]);
    expect(outputFields(node('free'), { seen: { answer: 'yes', items: [{ id: 7 }, { id: 8 }] } })).toEqual([
      { path: ['answer'], detail: 'last run: "yes"' },
      { path: ['items'], detail: 'last run: [{"id":7},{"id":8}]' },
      { path: ['items', '0'], detail: 'first of 2: {"id":7}' },
      { path: ['items', '0', 'id'], detail: 'last run: 7' },
    ]);
    // Text, or an LLM in text mode: nothing inside.
    expect(outputFields(node('free'), { seen: 'plain text' })).toEqual([]);
  });

  it('reads what the node calls declares (a tool’s outputSchema) before what a run gave', () => {
    const declared = { type: 'object', properties: { total: { type: 'number' } } };
    expect(outputFields(node('free'), { declared, seen: { total: 3, note: 'x' } })).toEqual([
      { path: ['total'], detail: 'number' },
      { path: ['note'], detail: 'last run: "x"' },
    ]);
  });

  it('reads schemas written the FastMCP (pydantic) way: models behind $ref, optional values as anyOf with null', () => {
    const declared = {
      type: 'object',
      $defs: {
        Address: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'where to' },
            zip: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
        },
      },
      properties: {
        travellers: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'how many go' },
        to: { $ref: '#/$defs/Address' },
        stops: { type: 'array', items: { $ref: '#/$defs/Address' } },
        class: { oneOf: [{ const: 'economy' }, { const: 'business' }] },
      },
    };
    expect(outputFields(node('free'), { declared })).toEqual([
      { path: ['travellers'], detail: 'integer or null: how many go' },
      { path: ['to'], detail: 'object' },
      { path: ['to', 'city'], detail: 'string: where to' },
      { path: ['to', 'zip'], detail: 'string or null' },
      { path: ['stops'], detail: 'array' },
      { path: ['stops', '0', 'city'], detail: 'string: where to' },
      { path: ['stops', '0', 'zip'], detail: 'string or null' },
      { path: ['class'], detail: 'one of "economy", "business"' },
    ]);
    // A ref that points to itself ends instead of looping.
    const looping = { $defs: { A: { $ref: '#/$defs/A' } }, properties: { a: { $ref: '#/$defs/A' } } };
    expect(outputFields(node('free'), { declared: looping })).toEqual([{ path: ['a'], detail: 'field' }]);
  });

  it('offers at most 40 fields of a big result', () => {
    const big = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(outputFields(node('free'), { seen: big })).toHaveLength(40);
  });
});

describe('fields in the template editor’s references and the condition’s JSONPath', () => {
  it('completion offers each field of an upstream output; the Insert chips stay one per node', () => {
    const offered = referencesFor(flow, 'result', (id) => (id === 'free' ? { seen: { answer: 'yes' } } : {}));
    expect(offered.filter((o) => o.isField).map((o) => o.label)).toEqual([
      'nodes.classify.output.category',
      'nodes.classify.output.urgency',
      'nodes.classify.output.tags',
      'nodes.classify.output.tags[0].name',
      'nodes.free.output.answer',
      'nodes.confirm.output.send',
      'nodes.confirm.output.note',
    ]);
    expect(offered.filter((o) => !o.isField).map((o) => o.label)).toEqual([
      'inputs.ticket',
      'nodes.input.output',
      'nodes.classify.output',
      'nodes.classify.error',
      'nodes.free.output',
      'nodes.free.error',
      'nodes.confirm.output',
    ]);
  });

  it('JSONPaths under the one output a rule tests, from where its value points', () => {
    const offered = referencesFor(flow, 'result');
    expect(jsonPathsFor('{{nodes.classify.output}}', offered)).toEqual([
      '$',
      '$.category',
      '$.urgency',
      '$.tags',
      '$.tags[0].name',
    ]);
    expect(jsonPathsFor(' {{ nodes.classify.output.tags }} ', offered)).toEqual(['$', '$[0].name']);
    expect(
      jsonPathsFor(
        '{{nodes.free.output}}',
        referencesFor(flow, 'result', () => ({ seen: { 'first-name': 'Ada' } })),
      ),
    ).toEqual(['$', "$['first-name']"]);
    // Text around the reference, two references, an input, a node not in the flow: the value itself.
    for (const value of ['Hi {{nodes.classify.output}}', '{{inputs.ticket}}', '{{nodes.gone.output}}', '']) {
      expect(jsonPathsFor(value, offered)).toEqual(['$']);
    }
  });
});
