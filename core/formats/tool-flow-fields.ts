import { z } from 'zod';
import { any, fields, list, unknownFields } from './known-fields';

/**
 * The field names of a tool flow as seed 000's types give them (Flow,
 * FlowParameter, ReturnValue). Views are read, and checked, by importView.
 */
const ToolFlowFields = z.object({
  id: any,
  appId: any,
  name: any,
  description: any,
  toolName: any,
  toolDescription: any,
  whenToUse: any,
  whenNotToUse: any,
  isActive: any,
  parameters: list(fields({ name: any, type: any, description: any, optional: any })),
  views: any,
  returnValues: list(fields({ id: any, flowId: any, text: any, order: any, createdAt: any, updatedAt: any })),
  createdAt: any,
  updatedAt: any,
});

/** Where each field of a tool flow that seed 000 does not have is (`parameters[0].enum`). */
export function unknownToolFlowFields(doc: Record<string, unknown>): string[] {
  return unknownFields(ToolFlowFields, doc);
}
