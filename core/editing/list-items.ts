import type { AnyEditorField } from '../nodes/define-node';
import { newItemId } from './ids';

/** `base`, or `base_2`, `base_3`… the first that no item of `items` has under `key`. */
function freeName(base: string, key: string, items: readonly Record<string, unknown>[]): string {
  const used = new Set(items.map((item) => item[key]));
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

/**
 * The item "Add …" appends to a list setting, from its type's editor hints:
 * each sub-field's `initial` (numbered while another item has it, when
 * `unique`), else an empty value of its kind; JSON-ish ones left out. An item
 * the node's schema takes as it is, so that adding one is never refused
 * (list-items.test.ts checks every list of every node type).
 */
export function blankItem(list: AnyEditorField, items: readonly Record<string, unknown>[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const f of list.itemFields ?? []) {
    if (f.initial !== undefined) {
      item[f.key] = f.unique && typeof f.initial === 'string' ? freeName(f.initial, f.key, items) : f.initial;
    } else if (f.kind === 'json' || f.kind === 'value' || f.kind === 'values') {
      continue;
    } else {
      item[f.key] =
        f.kind === 'select'
          ? (f.options?.[0] ?? '')
          : f.kind === 'number'
            ? (f.min ?? 0)
            : f.kind === 'boolean'
              ? false
              : '';
    }
  }
  // Return values are known by id (list-merge.ts matches them by it); each gets one never used in any window.
  if (list.key === 'returnValues') item.id = newItemId(new Set(items.map((it) => String(it.id))), 'value');
  return item;
}
