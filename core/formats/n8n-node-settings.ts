import type { ConvertContext, Converted, N8nNode } from './n8n-model';
import type { N8nData } from './n8n-expressions';
import { isRecord } from './shared';

/** A node's retries, failure handling, deactivation and pinned data, as Flowbench's node settings. */
export function nodeSettings(
  node: N8nNode,
  result: Converted,
  ctx: ConvertContext,
  pinned: unknown,
  data: N8nData | undefined,
): Record<string, unknown> {
  const raw = node.raw;
  const settings: Record<string, unknown> = {};
  const endpoint = result.type === 'input' || result.type === 'output';
  if (result.timeoutMs !== undefined) settings.timeoutMs = result.timeoutMs;
  if (raw.disabled === true) {
    if (endpoint)
      ctx.problem('it is deactivated; a flow always runs its input and output nodes', { severity: 'warning' });
    else settings.disabled = true;
  }
  if (raw.retryOnFail === true) {
    const tries = typeof raw.maxTries === 'number' ? raw.maxTries : 3;
    settings.maxAttempts = Math.min(10, Math.max(2, Math.round(tries)));
    if (raw.waitBetweenTries !== undefined)
      ctx.problem('its wait between tries is not carried over: Flowbench waits longer after each failed attempt', {
        severity: 'warning',
      });
  }
  if (raw.onError === 'continueRegularOutput') {
    settings.onError = 'continue';
    ctx.problem(
      'on failure n8n went on with the error as its item; here the run goes on and what follows the node is skipped',
      {
        severity: 'warning',
      },
    );
  }
  for (const key of ['alwaysOutputData', 'executeOnce'] as const)
    if (raw[key] === true) ctx.problem(`its setting ${key} is not carried over`, { severity: 'warning' });
  const items = Array.isArray(pinned) ? pinned.filter(isRecord) : [];
  if (items.length > 0) {
    const json = isRecord(items[0]?.json) ? items[0].json : items[0];
    if (endpoint)
      ctx.problem('its pinned data is not carried over: an input node is not pinned', { severity: 'warning' });
    else settings.pin = { output: data?.kind === 'answer' ? dig(json, data.keys) : json };
    if (items.length > 1)
      ctx.problem(`only the first of its ${items.length} pinned items is kept: a Flowbench node gives one output`, {
        severity: 'warning',
      });
  }
  return settings;
}

const dig = (value: unknown, keys: string[]): unknown =>
  keys.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value) ?? null;
