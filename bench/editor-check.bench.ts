import { applyChangeSet, ChangeSetSchema } from '../core/model/change-set';
import { FlowSchema } from '../core/model/flow';
import { validateFlow } from '../core/model/validate';
import { createValidationMemo } from '../core/model/validation-memo';
import { nodeRegistry } from '../core/nodes/registry';
import { generatedFlow } from '../tests/helpers/flows';
import { median, ms, type BenchRow } from './stats';

/**
 * The editor's check of a 10,000-node flow after an edit (a template's text
 * changed), with the memo it keeps for the open flow and from scratch, side
 * by side on the same flows: what a pause in typing costs the page.
 */
export function benchEditorCheck(): BenchRow[] {
  let flow = FlowSchema.parse(generatedFlow(10_000, 'checked'));
  const memo = createValidationMemo();
  validateFlow(flow, { catalogue: nodeRegistry, memo });
  const remembered: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < 25; i++) {
    const id = `n${100 + i * 37}`;
    const changes = ChangeSetSchema.parse({
      updateNodes: [{ id, config: { template: `edit ${i} {{inputs.topic}}` } }],
    });
    flow = applyChangeSet(flow, changes);
    let started = performance.now();
    const withMemo = validateFlow(flow, { catalogue: nodeRegistry, memo }).problems.length;
    if (i >= 5) remembered.push(performance.now() - started);
    started = performance.now();
    const withoutMemo = validateFlow(flow, { catalogue: nodeRegistry }).problems.length;
    if (i >= 5) fresh.push(performance.now() - started);
    if (withMemo !== withoutMemo) throw new Error(`the memo found ${withMemo} problems, from scratch ${withoutMemo}`);
  }
  return [
    {
      suite: 'store',
      metric: "editor's check of a 10,000-node flow after an edit (kept / from scratch)",
      value: `${ms(median(remembered))} / ${ms(median(fresh))}`,
    },
  ];
}
