import { z } from 'zod';
import { any, fields, list, unknownFields } from './known-fields';

/**
 * The field names of a workflow file as seed 003's models give them
 * (WorkflowModel, TriggerModel, CustomLLM, CustomAgent, StopWorkflowChecker
 * and its conditions), with the timestamps its stored rows carry. `tools`
 * and `filter_rules` are maps of the person's own names.
 */
const STEP = fields({
  uuid: any,
  user_id: any,
  name: any,
  description: any,
  type: any,
  model: any,
  system_prompt: any,
  generated_summary: any,
  tools: any,
  stop_conditions: list(
    fields({ step_definition_uuid: any, extraction_json_path: any, operator: any, target_value: any }),
  ),
  created_at: any,
  updated_at: any,
});

const WORKFLOW = {
  uuid: any,
  user_id: any,
  name: any,
  description: any,
  is_active: any,
  trigger_uuid: any,
  template_id: any,
  template_version: any,
  created_at: any,
  updated_at: any,
};

/** `{ workflow, trigger, steps }`: the workflow lists its steps' uuids, the file holds the steps. */
const WorkflowFile = z.object({
  workflow: fields({ ...WORKFLOW, steps: any }),
  trigger: fields({
    uuid: any,
    user_id: any,
    workflow_uuid: any,
    filter_rules: any,
    initial_data_description: any,
    created_at: any,
    updated_at: any,
  }),
  steps: list(STEP),
});

/** A workflow whose `steps` holds the steps themselves. */
const FlatWorkflow = z.object({ ...WORKFLOW, steps: list(STEP) });

/** Where each field of a workflow file that seed 003 does not have is (`steps[0].temperature`). */
export function unknownWorkflowFields(doc: Record<string, unknown>): string[] {
  return unknownFields(doc.workflow === undefined ? FlatWorkflow : WorkflowFile, doc);
}
