import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { droppedFields } from './dropped-fields';

describe('droppedFields', () => {
  const schema = z.object({
    name: z.string(),
    items: z.array(z.object({ id: z.string() })).default([]),
    extra: z.record(z.string(), z.unknown()).optional(),
  });
  const dropped = (input: unknown, path?: string) => droppedFields(input, schema.parse(input), path);

  it('names each field a parse dropped, at any depth, from where it starts', () => {
    expect(dropped({ name: 'a', nmae: 'b', items: [{ id: 'x' }, { id: 'y', di: 'z' }] }, 'args')).toEqual([
      'args.nmae',
      'args.items[1].di',
    ]);
  });

  it('leaves free-form records and filled defaults alone', () => {
    expect(dropped({ name: 'a', extra: { anything: 1, constructor: 2 } })).toEqual([]);
  });

  it('counts `constructor` and `__proto__` as fields like any other', () => {
    expect(dropped(JSON.parse('{"name":"a","constructor":1,"__proto__":{"x":1}}'))).toEqual([
      'constructor',
      '__proto__',
    ]);
  });

  it('does not count a field that holds undefined (structured clone carries it, JSON does not): it loses nothing', () => {
    expect(dropped({ name: 'a', note: undefined })).toEqual([]);
  });
});
