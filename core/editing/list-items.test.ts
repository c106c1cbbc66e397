import { describe, expect, it } from 'vitest';
import { nodeRegistry } from '../nodes/registry';
import type { AnyEditorField } from '../nodes/define-node';
import { blankItem } from './list-items';

/** Every list setting of every node type, with where it is (`rules` of condition). */
const lists = nodeRegistry
  .all()
  .flatMap((definition) =>
    (definition.editor as readonly AnyEditorField[])
      .filter((field) => field.kind === 'list')
      .map((field) => ({ definition, field, where: `${field.key} of ${definition.type}` })),
  );

describe('Add on a list setting', () => {
  it.each(lists)('adds items the node takes, twice over: $where', ({ definition, field }) => {
    let config = definition.defaults();
    for (let n = 0; n < 2; n++) {
      const items = (config[field.key] as Record<string, unknown>[] | undefined) ?? [];
      config = { ...config, [field.key]: [...items, blankItem(field, items)] };
      const parsed = definition.configSchema.safeParse(config);
      expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    }
  });

  it('numbers a name another item has, and gives each return value an id of its own', () => {
    const ask = nodeRegistry.get('ask')?.editor.find((f) => f.key === 'fields') as AnyEditorField;
    expect(blankItem(ask, [{ name: 'answer' }, { name: 'answer_2' }])).toMatchObject({ name: 'answer_3' });
    const values = nodeRegistry.get('output')?.editor.find((f) => f.key === 'returnValues') as AnyEditorField;
    const first = blankItem(values, []);
    expect(blankItem(values, [first]).id).not.toBe(first.id);
  });
});
