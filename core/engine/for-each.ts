import { FlowbenchError, isRetryable, toFlowbenchError } from '../model/errors';
import { MAX_CODE_CONSOLE_LINES, MORE_CONSOLE_LINES } from '../model/code';
import { DEFAULT_FOR_EACH_CONCURRENCY, type FlowNode } from '../model/flow';
import { totalUsage } from '../model/pricing';
import { asJson, resolveTemplateValue, type RenderScope, type UsedValues } from '../model/render';
import type { NodeOutcome, StepDetails } from '../nodes/define-node';
import { cutText } from '../model/cut-text';

/** A list longer than this is refused: a run of thousands of model calls is a mistake more often than not. */
export const MAX_FOR_EACH_ITEMS = 1000;

/** The list `forEach.items` gives: an array, or text holding a JSON array (a model's answer), read as references read it. */
function listOf(value: unknown): unknown[] | undefined {
  const json = asJson(value);
  return Array.isArray(json) ? (json as unknown[]) : undefined;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') return `the text "${value.length > 60 ? `${cutText(value, 59)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/**
 * Runs a node once for each item of the list its `forEach.items` gives
 * (Rivet's split run, Dify's iteration), `concurrency` at a time, each item
 * seen by its templates as `{{item}}`. The outcome is the list of what each
 * item gave, in the items' order; the step's usage and tool calls are the
 * items' together. The first item that fails stops the others (`abort`) and
 * fails the node, saying which item. A failure worth another attempt (a rate
 * limit, a 503) is retried for that item alone, up to the node's attempts
 * (`retry`), as a node is: items that succeeded are not run (or paid for) again. With
 * `onItemError: continue` (Dify's "continue on error") a failed item gives
 * null in its place and is listed in the step's input (`failedItems`); the
 * node fails only when every item did.
 */
export async function runForEach(
  node: FlowNode & { forEach: NonNullable<FlowNode['forEach']> },
  scope: RenderScope,
  used: UsedValues,
  details: StepDetails,
  runItem: (scope: RenderScope, details: StepDetails) => NodeOutcome | Promise<NodeOutcome>,
  abort: (reason: FlowbenchError) => void,
  retry: ItemRetry,
): Promise<NodeOutcome> {
  const given = resolveTemplateValue(node.forEach.items, scope, used);
  const items = listOf(given);
  if (!items) {
    throw new FlowbenchError(
      'FOR_EACH_NOT_A_LIST',
      `node "${node.id}" runs for each item of ${node.forEach.items}, which gave ${describe(given)}, not a list`,
      { nodeId: node.id },
    );
  }
  if (items.length > MAX_FOR_EACH_ITEMS) {
    throw new FlowbenchError(
      'FOR_EACH_NOT_A_LIST',
      `node "${node.id}" runs for each item of ${node.forEach.items}, which gave ${items.length} items; at most ${MAX_FOR_EACH_ITEMS} run`,
      { nodeId: node.id },
    );
  }
  const outputs: unknown[] = new Array<unknown>(items.length).fill(null);
  const itemDetails: StepDetails[] = [];
  let next = 0;
  let failed: FlowbenchError | undefined;
  /** Items that failed while the node goes on past them (`onItemError: continue`). */
  const passed: { item: number; code: string; message: string }[] = [];
  const goesOn = node.forEach.onItemError === 'continue';
  /** One item, with its own attempts: a retryable failure runs it again after the backoff. */
  const attempt = async (index: number, mine: StepDetails): Promise<NodeOutcome> => {
    const itemScope: RenderScope = {
      inputs: scope.inputs,
      node: (id) => scope.node(id),
      secret: (name) => scope.secret?.(name),
      item: items[index],
    };
    for (let tried = 1; ; tried++) {
      try {
        return await runItem(itemScope, mine);
      } catch (thrown) {
        const error = toFlowbenchError(thrown);
        if (failed !== undefined || signalled(error) || tried >= retry.maxAttempts || !isRetryable(error)) throw error;
        retry.retried({ code: error.code, message: `item ${index + 1}: ${error.message}` });
        await retry.wait(tried);
      }
    }
  };
  const worker = async (): Promise<void> => {
    while (failed === undefined && next < items.length) {
      const index = next++;
      const mine: StepDetails = {};
      itemDetails[index] = mine;
      try {
        const outcome = await attempt(index, mine);
        outputs[index] = outcome.kind === 'output' ? outcome.output : null;
      } catch (thrown) {
        if (failed !== undefined) return;
        const error = toFlowbenchError(thrown);
        // A cancelled run or the node's time limit stops every item, whatever the node says of one.
        if (goesOn && !signalled(error)) {
          passed.push({ item: index + 1, code: error.code, message: error.message });
          continue;
        }
        failed = new FlowbenchError(
          error.code,
          `item ${index + 1} of ${items.length}: ${error.message}`,
          { ...(error.data ?? {}), item: index },
          { cause: error },
        );
        abort(failed);
      }
    }
  };
  const workers = Math.min(node.forEach.concurrency ?? DEFAULT_FOR_EACH_CONCURRENCY, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  // What each item read of its own is not the step's input: the list it ran over is.
  for (const key of Object.keys(used)) if (key === 'item' || key.startsWith('item.')) delete used[key];
  passed.sort((a, b) => a.item - b.item);
  const logged = itemConsoles(itemDetails);
  details.input = {
    ...used,
    items,
    ...(passed.length > 0 ? { failedItems: passed } : {}),
    ...(logged.length > 0 ? { console: logged } : {}),
  };
  const usage = totalUsage(itemDetails.map((d) => d?.usage));
  if (usage) details.usage = usage;
  const toolCalls = itemDetails.flatMap((d) => d?.toolCalls ?? []);
  if (toolCalls.length > 0) details.toolCalls = toolCalls;
  if (failed !== undefined) throw failed;
  // Going on past every item would be a success with nothing in it: the first failure says why.
  if (items.length > 0 && passed.length === items.length) {
    const first = passed[0] as (typeof passed)[number];
    throw new FlowbenchError(first.code as FlowbenchError['code'], `every item failed; item 1: ${first.message}`, {
      nodeId: node.id,
    });
  }
  return { kind: 'output', output: outputs };
}

/**
 * The lines each item's code logged (a code node's `console` in its input),
 * each said with its item, in the items' order; as many as one run of the
 * code keeps, and a line saying when there were more.
 */
function itemConsoles(itemDetails: readonly (StepDetails | undefined)[]): string[] {
  const lines = itemDetails.flatMap((details, index) => {
    const logged = (details?.input as { console?: unknown } | undefined)?.console;
    return Array.isArray(logged) ? logged.map((line) => `item ${index + 1}: ${String(line)}`) : [];
  });
  if (lines.length <= MAX_CODE_CONSOLE_LINES) return lines;
  return [...lines.slice(0, MAX_CODE_CONSOLE_LINES), MORE_CONSOLE_LINES];
}

/** How a node that runs for each item retries one item (NodeRunInput's policy, per item). */
export interface ItemRetry {
  /** The node's attempts, for each item. */
  maxAttempts: number;
  /** The backoff before attempt `tried + 1`; it ends early when the node is stopped. */
  wait(tried: number): Promise<void>;
  /** An item's failed attempt, for the step record's retries. */
  retried(failure: { code: string; message: string }): void;
}

/** The run was cancelled or the node ran out of time: not one item's failure. */
const signalled = (error: FlowbenchError) =>
  error.code === 'CANCELLED' || error.code === 'NODE_TIMEOUT' || error.code === 'RUN_TIMEOUT';
