import type { z } from 'zod';
import type { FlowNode } from './flow';
import type { NodeTypeSpec } from './node-catalogue';

export type ConfigResult =
  | { ok: true; config: Record<string, unknown>; version: number }
  | { ok: false; issues: z.core.$ZodIssue[]; message?: string };

/**
 * Brings a saved config up to its type's current version through the type's
 * migrations, then parses it (filling defaults).
 */
export function parseNodeConfig(definition: NodeTypeSpec, node: Pick<FlowNode, 'config' | 'version'>): ConfigResult {
  if (node.version > definition.version) {
    return {
      ok: false,
      issues: [],
      message: `config version ${node.version} is newer than this Flowbench knows (${definition.version})`,
    };
  }
  let config = node.config;
  for (let v = node.version; v < definition.version; v++) {
    const migrate = definition.migrations?.[v];
    if (!migrate) {
      return { ok: false, issues: [], message: `no migration from config version ${v}` };
    }
    config = migrate(config);
  }
  const parsed = definition.configSchema.safeParse(config);
  return parsed.success
    ? { ok: true, config: parsed.data, version: definition.version }
    : { ok: false, issues: parsed.error.issues };
}
