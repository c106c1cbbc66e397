import { z } from 'zod';
import { any, fields, list, unknownFields } from './known-fields';

const transition = fields({ next: any, complete: any, fail: any });

/**
 * The field names of a flow definition as seed 004 gives them (its tables,
 * its step example and its minimal example), with `startStepId`, `status` and
 * `is_active`, which it names in its rules. Values are checked where the
 * importer reads them; this only finds the names it does not have.
 */
const FlowDefinitionFields = z.object({
  flowId: any,
  version: any,
  syncOnly: any,
  startStepId: any,
  status: any,
  is_active: any,
  metadata: fields({ title: any, description: any, tags: any }),
  memory: fields({ sharedChannels: list(fields({ id: any, retentionVersions: any, retentionDays: any })) }),
  /** Launch flags by name (UI, API). */
  triggers: any,
  /** `overrides.options`, or the options themselves, as files write them. */
  defaults: fields({ context: any, overrides: any }),
  launchParameters: list(fields({ name: any, type: any, required: any, description: any })),
  steps: list(
    fields({
      id: any,
      name: any,
      agentVersionId: any,
      prompt: any,
      overrides: fields({ temperature: any, topP: any, maxTokens: any }),
      // Their entries become an agent node's memory settings, whose check names what they lack (readFlowFile).
      memoryReads: any,
      memoryWrites: any,
      transitions: fields({ onSuccess: transition, onFailure: transition }),
      maxAttempts: any,
    }),
  ),
  outputs: fields({ resultPayload: any, summaryFields: any }),
});

/** Where each field of a flow definition that seed 004 does not have is (`steps[0].retryPolicy`). */
export function unknownDefinitionFields(doc: Record<string, unknown>): string[] {
  return unknownFields(FlowDefinitionFields, doc);
}
