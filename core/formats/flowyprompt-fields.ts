import { z } from 'zod';
import { any, fields, list, unknownFields } from './known-fields';

/**
 * The field names of a FlowyPrompt file as seed 001's data model gives them
 * (Flow, FlowNode and its three types' data, FlowEdge). The importer reads
 * what each node's type needs and checks it (checkFlowyPrompt).
 */
const FlowyPromptFields = z.object({
  metadata: fields({ name: any, version: any, description: any, created: any, updated: any }),
  nodes: list(
    fields({
      id: any,
      type: any,
      position: fields({ x: any, y: any }),
      data: fields({ label: any, template: any, variables: any, selectedTemplateId: any }),
    }),
  ),
  edges: list(fields({ id: any, source: any, target: any, type: any })),
});

/** Where each field of a FlowyPrompt file that seed 001 does not have is (`nodes[1].data.model`). */
export function unknownFlowyPromptFields(doc: Record<string, unknown>): string[] {
  return unknownFields(FlowyPromptFields, doc);
}

/**
 * Kept for export: each node, its data, each edge and the metadata are
 * written back from the file's own (see exportFlowyPrompt); a position is
 * written from the node's, and the file's other top-level fields are not.
 */
export const isKeptInFlowyPrompt = (source: string): boolean =>
  /^(metadata|nodes\[\d+\]|edges\[\d+\])\./.test(source) && !/^nodes\[\d+\]\.position\./.test(source);

/** Seed 001 puts a flow's name, version, description and dates in its metadata. */
export const flowyPromptHint = (name: string, source: string): string =>
  source === name && /^(name|version|description|created|updated)$/.test(name)
    ? ` (seed 001 has it in metadata.${name})`
    : '';
