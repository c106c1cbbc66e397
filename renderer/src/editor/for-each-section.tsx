import { DEFAULT_FOR_EACH_CONCURRENCY, type Flow, type FlowNode } from '../../../core/model/flow';
import type { ReferenceOption } from '../../../core/editing/references';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { ConfigField } from './config-field';

/**
 * The list a node starts from when Run for each is ticked: a list parameter,
 * else the answer of the node right before it, else nothing (said at once).
 */
function firstGuess(flow: Flow, node: FlowNode): string {
  const list = flow.parameters.find((p) => p.type === 'array');
  if (list) return `{{inputs.${list.name}}}`;
  const before = flow.edges.find((e) => e.target === node.id && !e.loop && e.source !== node.id)?.source;
  const source = before ? flow.nodes.find((n) => n.id === before) : undefined;
  return source && !nodeRegistry.get(source.type)?.isEntry ? `{{nodes.${source.id}.output}}` : '';
}

/**
 * Run for each item of a list (Rivet's split run, Dify's iteration): the
 * list, read as `{{item}}` in the node's fields, and how many items run at once.
 */
export function ForEachSection({
  flow,
  node,
  references,
}: {
  flow: Flow;
  node: FlowNode;
  references: readonly ReferenceOption[];
}) {
  if (!nodeRegistry.get(node.type)?.runsForEach) return null;
  const forEach = node.forEach;
  const set = (next: FlowNode['forEach'] | null, key: string) =>
    useAppStore.getState().updateNode(node.id, { forEach: next }, `${node.id}.forEach.${key}`);
  return (
    <section className="node-for-each" aria-label="Run for each item">
      <label className="field inline" htmlFor="node-for-each">
        <input
          id="node-for-each"
          type="checkbox"
          checked={forEach !== undefined}
          onChange={(e) => set(e.target.checked ? { items: firstGuess(flow, node) } : null, 'on')}
        />
        <span className="field-label">
          Run for each item of a list: its fields read the item as <code>{'{{item}}'}</code>, its output is the list of
          what each gave
        </span>
      </label>
      {forEach && (
        <>
          <ConfigField
            field={{
              key: 'items',
              kind: 'template',
              label: 'The list',
              help: 'a JSON array: a parameter of type array, or a node that answers one (text holding a JSON array is read too)',
            }}
            path="forEach.items"
            value={forEach.items}
            onChange={(value) => set({ ...forEach, items: typeof value === 'string' ? value : '' }, 'items')}
            references={references.filter((r) => r.label !== 'item')}
            scope={`${flow.id}:${node.id}`}
          />
          <label className="field" htmlFor="node-for-each-concurrency">
            <span className="field-label">Items at once</span>
            <input
              id="node-for-each-concurrency"
              type="number"
              min={1}
              max={20}
              value={forEach.concurrency ?? DEFAULT_FOR_EACH_CONCURRENCY}
              onChange={(e) => {
                const n = Math.min(20, Math.max(1, Math.round(Number(e.target.value)) || 1));
                const next = { ...forEach };
                if (n === DEFAULT_FOR_EACH_CONCURRENCY) delete next.concurrency;
                else next.concurrency = n;
                set(next, 'concurrency');
              }}
            />
          </label>
          <label className="field" htmlFor="node-for-each-on-error">
            <span className="field-label">When an item fails</span>
            <select
              id="node-for-each-on-error"
              value={forEach.onItemError ?? ''}
              onChange={(e) => {
                const next = { ...forEach };
                if (e.target.value === 'continue') next.onItemError = 'continue';
                else delete next.onItemError;
                set(next, 'onItemError');
              }}
            >
              <option value="">Fail the node</option>
              <option value="continue">Go on: null in its place</option>
            </select>
            <small>
              failing, the other items stop; going on, the step lists the failed items, and the node fails only if every
              item does
            </small>
          </label>
        </>
      )}
    </section>
  );
}
