import { z } from 'zod';
import { droppedFields } from '../model/dropped-fields';

// Optional: zod 4 counts a missing unknown() field as missing, not as undefined.
const any = z.unknown().optional();
/** An object whose named fields may each be absent or hold anything: only the names count here. */
const fields = (shape: Record<string, z.ZodType>) => z.union([z.object(shape), any]);
const list = (item: z.ZodType) => z.union([z.array(item), any]);
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
  const parsed = FlowDefinitionFields.safeParse(doc);
  // Every field is optional and any value fits: a parse that fails is a bug here, not in the file.
  return parsed.success ? droppedFields(doc, parsed.data) : [];
}
