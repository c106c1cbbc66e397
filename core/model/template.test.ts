import { describe, expect, it } from 'vitest';
import {
  parseReference,
  parseTemplate,
  readPath,
  renameReferences,
  stringifyValue,
  templateReferences,
} from './template';
import { renderTemplate, resolveTemplateValue } from './render';

describe('templates', () => {
  it('finds references with their positions', () => {
    const segments = parseTemplate('Hi {{ inputs.name }}, see {{nodes.llm-1.output.items[0].title}}!');
    expect(segments).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'ref', raw: '{{ inputs.name }}', start: 3, end: 20, ref: { scope: 'inputs', name: 'name', path: [] } },
      { kind: 'text', text: ', see ' },
      {
        kind: 'ref',
        raw: '{{nodes.llm-1.output.items[0].title}}',
        start: 26,
        end: 63,
        ref: { scope: 'nodes', nodeId: 'llm-1', field: 'output', path: ['items', '0', 'title'] },
      },
      { kind: 'text', text: '!' },
    ]);
  });

  it('keeps unmatched braces as text and flags bad expressions', () => {
    expect(parseTemplate('a {{ b')).toEqual([{ kind: 'text', text: 'a {{ b' }]);
    expect(parseReference('nodes.x')).toEqual({ error: 'use {{nodes.x.output}} or {{nodes.x.error}}' });
    expect(parseReference('process.env.HOME')).toEqual({
      error:
        '"process.env.HOME" must start with inputs., nodes., item or secrets. (to keep {{ as text, write {{ "{{" }})',
    });
    expect(parseReference('inputs.a + 1')).toHaveProperty('error');
    expect(templateReferences('{{nodes.a.error.message}}')).toEqual([
      { scope: 'nodes', nodeId: 'a', field: 'error', path: ['message'] },
    ]);
  });

  it('writes {{ as text with {{ "{{" }} (any quoted text, as JSON writes a string), never a reference', () => {
    const template = 'Handlebars: {{ "{{" }}#each items{{ "}}" }} for {{inputs.who}}, {{"\\u007b{"}}raw}}';
    expect(renderTemplate(template, { inputs: { who: 'Ada' }, node: () => undefined })).toBe(
      'Handlebars: {{#each items}} for Ada, {{raw}}',
    );
    expect(parseTemplate('a {{ "{{" }} b')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'literal', raw: '{{ "{{" }}', start: 2, end: 12, text: '{{' },
      { kind: 'text', text: ' b' },
    ]);
    expect(templateReferences(template)).toEqual([{ scope: 'inputs', name: 'who', path: [] }]);
    // Alone, it is its text, not a value.
    expect(resolveTemplateValue('{{ "{{" }}', { inputs: {}, node: () => undefined })).toBe('{{');
    // Quoted text JSON does not take is no literal; nor is a quote that does not close.
    expect(parseTemplate('{{ "\\q" }}')[0]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/not quoted text/),
    });
    expect(parseTemplate('{{ "{{ }}')[0]).toMatchObject({ kind: 'text' });
    // Renaming a node leaves it as it was.
    expect(renameReferences('{{ "{{" }}nodes.a.output}} {{nodes.a.output}}', new Map([['a', 'b']]))).toBe(
      '{{ "{{" }}nodes.a.output}} {{nodes.b.output}}',
    );
  });

  it('reads paths and stringifies values', () => {
    expect(readPath({ a: [{ b: 2 }] }, ['a', '0', 'b'])).toBe(2);
    expect(readPath({ a: 1 }, ['a', 'b'])).toBeUndefined();
    expect(stringifyValue(null)).toBe('');
    expect(stringifyValue({ a: 1 })).toBe('{"a":1}');
    expect(stringifyValue('x')).toBe('x');
  });

  it('finds nothing at a path every object inherits (constructor, __proto__), in outputs as in inputs', () => {
    const scope = { inputs: { topic: 'otters' }, node: () => ({ output: { a: 1, list: [1, 2] } }) };
    for (const template of [
      '{{nodes.x.output.constructor}}',
      '{{nodes.x.output.__proto__}}',
      '{{nodes.x.output.a.toString}}',
      '{{nodes.x.output.list.constructor}}',
      '{{inputs.constructor}}',
    ]) {
      const used: Record<string, unknown> = {};
      // Before: the text "undefined", or "{}", and Object's function as the value.
      expect(renderTemplate(template, scope, used), template).toBe('');
      expect(resolveTemplateValue(template, scope), template).toBeNull();
      expect(Object.values(used)).toEqual([null]);
    }
    // What a list has of its own still reads.
    expect(renderTemplate('{{nodes.x.output.list.length}} {{nodes.x.output.list[1]}}', scope)).toBe('2 2');
  });
});

describe('renameReferences', () => {
  it('renames node references however they are spaced, keeping paths, fields and other text', () => {
    const renamed = new Map([['a', 'b']]);
    expect(renameReferences('x {{ nodes.a.output }} y {{nodes.a.error}} {{nodes.a.output.k[0]}}', renamed)).toBe(
      'x {{nodes.b.output}} y {{nodes.b.error}} {{nodes.b.output.k.0}}',
    );
    expect(renameReferences('{{nodes.ab.output}} {{inputs.a}} {{ broken', renamed)).toBe(
      '{{nodes.ab.output}} {{inputs.a}} {{ broken',
    );
  });
});
