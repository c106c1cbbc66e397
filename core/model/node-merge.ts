import type { NodeUpdate } from './change-set';
import { FlowbenchError } from './errors';
import type { FlowNode } from './flow';
import { mergeParts } from './list-merge';
import { sameData } from './same-json';

/** The settings of a node an update may set, each merged on its own (position is not: see isMoveOnly). */
export const NODE_SETTINGS = [
  'label',
  'config',
  'version',
  'maxAttempts',
  'timeoutMs',
  'onError',
  'disabled',
  'pin',
  'forEach',
] as const;
export type NodeSetting = (typeof NODE_SETTINGS)[number];
type Config = Record<string, unknown>;

/** Where a merge took a value: this edit's, or the one stored (which another window may have written). */
type Side = 'ours' | 'stored';

/**
 * An update of a node merged with the node as stored now, when the update
 * says what it started from (`NodeUpdate.base`): a three-way merge, setting
 * by setting and, inside the config, key by key. What this edit left as it
 * found it takes the stored value, so a setting another window changed
 * meanwhile (the temperature, while this one wrote the prompt) is kept, not
 * undone by the whole config the editor sends. What only this edit changed,
 * or both changed alike, takes this edit's value. A list both changed
 * merges item by item, a text of several lines line by line (bothChanged).
 * A setting or config key both changed differently otherwise is an
 * EDIT_CONFLICT naming it: nothing typed is overwritten in silence (the
 * editor then offers Put back, which keeps the person's lines where both
 * changed the same ones). A setting sent without its base is checked by
 * the node's revision, as an update without any base is.
 *
 * `normalize` parses a config as the node's type reads it (defaults filled),
 * so that a key the host filled in on save is not mistaken for a change.
 * Configs of different versions (a migration in one window) merge whole.
 */
export function mergeNodeUpdate(
  stored: FlowNode & { rev: number },
  update: NodeUpdate,
  normalize: (config: Config, version: number) => Config = (config) => config,
): NodeUpdate {
  const { base = {}, ...ours } = update;
  const stale = update.rev !== undefined && update.rev !== stored.rev;
  const refuse = (what: string): never => {
    throw new FlowbenchError(
      'EDIT_CONFLICT',
      `node "${stored.id}" was changed elsewhere ${update.rev === undefined ? 'since this edit began' : `(revision ${stored.rev}, edit based on ${update.rev})`}: its ${what} was changed by both; reload to see it`,
      { nodeId: stored.id, rev: stored.rev, field: what },
    );
  };
  const side = (name: string, started: unknown, now: unknown, mine: unknown, hasBase: boolean): Side => {
    if (!hasBase && stale) {
      throw new FlowbenchError(
        'EDIT_CONFLICT',
        `node "${stored.id}" was changed elsewhere (revision ${stored.rev}, edit based on ${update.rev}); reload to see it`,
        { nodeId: stored.id, rev: stored.rev },
      );
    }
    if (!hasBase) return 'ours';
    if (sameData(mine, started)) return 'stored';
    if (sameData(now, started) || sameData(now, mine)) return 'ours';
    return refuse(name);
  };
  const merged: NodeUpdate = { ...ours };
  for (const setting of NODE_SETTINGS) {
    if (ours[setting] === undefined) continue;
    const hasBase = Object.hasOwn(base, setting);
    if (setting === 'config' && hasBase) {
      const config = mergeConfig(stored, ours, base, normalize, side);
      // Nothing of this edit's left in it: no config to write, as for any setting it left alone.
      if (sameData(config, stored.config)) delete merged.config;
      else merged.config = config;
    } else if (side(SETTING_NAMES[setting], base[setting], stored[setting], ours[setting], hasBase) === 'stored') {
      delete merged[setting];
    }
  }
  return merged;
}

/** The config after the merge, key by key; whole when the three are of different versions. */
function mergeConfig(
  stored: FlowNode,
  ours: Omit<NodeUpdate, 'base'>,
  base: NonNullable<NodeUpdate['base']>,
  normalize: (config: Config, version: number) => Config,
  side: (name: string, started: unknown, now: unknown, mine: unknown, hasBase: boolean) => Side,
): Config {
  const [b, t, o] = [base.config ?? {}, stored.config, ours.config ?? {}];
  const versions = [base.version ?? stored.version, stored.version, ours.version ?? base.version ?? stored.version];
  if (new Set(versions).size > 1) return side('settings', b, t, o, true) === 'stored' ? t : o;
  const [nb, nt, no] = [normalize(b, stored.version), normalize(t, stored.version), normalize(o, stored.version)];
  const merged: Config = {};
  for (const key of new Set([...Object.keys(t), ...Object.keys(o), ...Object.keys(nt), ...Object.keys(no)])) {
    const both = bothChanged(nb[key], nt[key], no[key]);
    if (both !== undefined) {
      merged[key] = both;
      continue;
    }
    const from = side(`setting "${key}"`, nb[key], nt[key], no[key], true) === 'stored' ? t : o;
    if (from[key] !== undefined) merged[key] = from[key];
  }
  return merged;
}

/**
 * A list (return values, arguments, an agent's tools) or a text of several
 * lines (a prompt, instructions) both sides changed differently, merged
 * item by item or line by line (mergeParts): two windows writing different
 * lines of one prompt both keep theirs. Undefined when it is neither, one
 * side left it alone, or the two changes overlap (then `side` refuses it,
 * and Put back offers the person's text).
 */
function bothChanged(base: unknown, stored: unknown, ours: unknown): unknown {
  if (sameData(ours, base) || sameData(stored, base) || sameData(stored, ours)) return undefined;
  return mergeParts(base, stored, ours);
}

/** How the message names each setting. */
const SETTING_NAMES: Record<NodeSetting, string> = {
  label: 'label',
  config: 'settings',
  version: 'config version',
  maxAttempts: 'number of attempts',
  timeoutMs: 'time limit',
  onError: 'on-error policy',
  disabled: 'deactivation',
  pin: 'pinned output',
  forEach: 'run for each item',
};

/**
 * What an update starts from (NodeUpdate.base): the node's value of each
 * setting the update sets, as the editor shows it before the edit (an unset
 * optional setting as null). The config comes with its version, so that a
 * migration in another window merges the config whole.
 */
export function nodeUpdateBase(node: FlowNode, update: NodeUpdate): NonNullable<NodeUpdate['base']> {
  const base: NonNullable<NodeUpdate['base']> = {};
  const write = base as Record<NodeSetting, unknown>;
  for (const setting of NODE_SETTINGS) {
    if (update[setting] !== undefined) write[setting] = node[setting] ?? null;
  }
  if (update.config !== undefined) base.version = node.version;
  return base;
}

/**
 * The node an editor shows after the host merged its edit with another
 * window's (ChangeResult.merged): each setting and config key the host has
 * other than this edit left it (`sent`) takes the host's value, unless the
 * editor changed it again since (`shown`, with edits still waiting to be
 * saved, which the host will merge in turn). With the names of what was
 * taken, for the person to be told (a config key's as `configName` gives it).
 */
export function rebaseNode(
  shown: FlowNode,
  sent: FlowNode,
  host: FlowNode,
  configName: (key: string) => string = (key) => key,
): { node: FlowNode; taken: string[] } {
  const node: FlowNode = { ...shown, config: { ...shown.config } };
  const taken: string[] = [];
  const take = (from: Record<string, unknown>, to: Record<string, unknown>, key: string, name: string) => {
    if (sameData(from[key], to[key])) return;
    taken.push(name);
    if (from[key] === undefined) delete to[key];
    else to[key] = from[key];
  };
  for (const setting of NODE_SETTINGS) {
    if (setting === 'config') {
      for (const key of new Set([...Object.keys(sent.config), ...Object.keys(host.config)])) {
        if (sameData(shown.config[key], sent.config[key])) take(host.config, node.config, key, configName(key));
      }
    } else if (sameData(shown[setting], sent[setting])) {
      take(host, node, setting, SETTING_NAMES[setting]);
    }
  }
  return { node, taken };
}
