import { FlowbenchError } from '../model/errors';
import { unusedFieldWarnings } from './known-fields';
import { unknownWorkflowFields } from './workflow-fields';
import {
  asString,
  clean,
  gridPosition,
  isRecord,
  nodeIdFactory,
  toolNameFrom,
  type ImportProblem,
  type ImportedFlow,
} from './shared';

/**
 * Workflow definitions (seed 003): a trigger and an ordered chain of CustomLLM,
 * CustomAgent and StopWorkflowChecker steps. Accepted as
 * `{ workflow, trigger?, steps: [...] }` or a workflow whose `steps` holds the
 * step objects themselves. `<<trigger_output>>` and `<<step_output.uuid>>`
 * become Flowbench references.
 */

const STEP_TYPES = ['custom_llm', 'custom_agent', 'stop_checker'];

function stepsOf(value: Record<string, unknown>): unknown[] | undefined {
  const steps: unknown = value.steps;
  return Array.isArray(steps) && steps.some((s) => isRecord(s) && STEP_TYPES.includes(asString(s.type)))
    ? (steps as unknown[])
    : undefined;
}

export function isWorkflow(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  if (isRecord(value.workflow) && stepsOf(value)) return true;
  return stepsOf(value) !== undefined && ('trigger_uuid' in value || 'is_active' in value);
}

export function importWorkflow(doc: Record<string, unknown>): ImportedFlow {
  const workflow = isRecord(doc.workflow) ? doc.workflow : doc;
  const trigger = isRecord(doc.trigger) ? doc.trigger : undefined;
  const allSteps = (stepsOf(doc) ?? []).filter(isRecord);
  // The workflow's own `steps` lists uuids in order; step objects may come in any order.
  const order =
    Array.isArray(workflow.steps) && workflow.steps.every((s) => typeof s === 'string')
      ? workflow.steps
      : allSteps.map((s) => asString(s.uuid));
  const problems: ImportProblem[] = [];
  const byUuid = new Map(allSteps.map((s) => [asString(s.uuid), s]));
  const steps = order.flatMap((uuid, i) => {
    const step = byUuid.get(uuid);
    if (!step)
      problems.push({
        code: 'IMPORT_PROBLEM',
        source: `workflow.steps[${i}]`,
        message: `the workflow lists step ${uuid}, which the file does not define`,
      });
    return step ? [step] : [];
  });
  if (steps.length === 0) throw new FlowbenchError('VALIDATION_ERROR', 'the workflow defines no steps');

  // The seed's trigger filters events before a run starts; Flowbench runs are started by a person,
  // the CLI or an MCP client, so there is nothing to filter: said, not dropped quietly.
  if (isRecord(trigger?.filter_rules) && Object.keys(trigger.filter_rules).length > 0) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: 'trigger.filter_rules',
      message: `the trigger's filter_rules (${JSON.stringify(trigger.filter_rules)}) are not applied: every run Flowbench starts runs the workflow; they are kept for export`,
    });
  }
  const makeId = nodeIdFactory();
  makeId('input');
  makeId('result');
  const ids = new Map(steps.map((s) => [asString(s.uuid), makeId(asString(s.name, 'step'))]));
  const listed = stepsOf(doc) ?? [];
  problems.push(
    ...unusedFieldWarnings(unknownWorkflowFields(doc), 'workflow', {
      nodeOf: {
        list: 'steps',
        idAt: (index) => {
          const step = listed[index];
          return isRecord(step) ? ids.get(asString(step.uuid)) : undefined;
        },
      },
    }),
  );
  const rewrite = (text: string, where: string, nodeId: string) =>
    text
      .replace(/<<\s*trigger_output\s*>>/g, '{{inputs.trigger_output}}')
      .replace(/<<\s*step_output\.([^>\s]+)\s*>>/g, (whole, uuid: string) => {
        const target = ids.get(uuid);
        if (target) return `{{nodes.${target}.output}}`;
        problems.push({
          code: 'IMPORT_PROBLEM',
          nodeId,
          source: where,
          message: `${whole} names step ${uuid}, which is not in this workflow`,
        });
        return whole;
      });

  const nodes: Record<string, unknown>[] = [
    { id: 'input', type: 'input', label: 'Trigger', position: gridPosition(0), config: {} },
  ];
  const edges: Record<string, unknown>[] = [];
  let previous = { id: 'input', port: 'out' };
  let column = 1;
  const connect = (target: string) => {
    edges.push({
      id: `e${edges.length + 1}`,
      source: previous.id,
      sourcePort: previous.port,
      target,
      targetPort: 'in',
    });
  };
  steps.forEach((step, index) => {
    const id = ids.get(asString(step.uuid)) as string;
    const metadata = { workflow: { step } };
    const label = asString(step.name, id);
    if (step.type === 'stop_checker') {
      const conditions = (Array.isArray(step.stop_conditions) ? step.stop_conditions : []).filter(isRecord);
      const rules = conditions.map((c, i) => {
        const target = ids.get(asString(c.step_definition_uuid));
        if (!target) {
          problems.push({
            code: 'IMPORT_PROBLEM',
            nodeId: id,
            source: `steps[${index}].stop_conditions[${i}]`,
            message: `a stop condition inspects step ${asString(c.step_definition_uuid)}, which is not in this workflow`,
          });
        }
        return clean({
          value: target ? `{{nodes.${target}.output}}` : '',
          path: asString(c.extraction_json_path, '$'),
          operator: asString(c.operator, 'equals'),
          operand: c.target_value,
        });
      });
      nodes.push({
        id,
        type: 'condition',
        label,
        position: gridPosition(column++),
        config: { match: 'any', rules },
        metadata,
      });
      connect(id);
      const stopId = makeId(`${id}_stop`);
      nodes.push({
        id: stopId,
        type: 'stop',
        label: `${label}: stop`,
        position: { x: gridPosition(column).x, y: 260 },
        config: { reason: `Stopped by "${label}"` },
      });
      edges.push({ id: `e${edges.length + 1}`, source: id, sourcePort: 'true', target: stopId, targetPort: 'in' });
      previous = { id, port: 'false' };
      return;
    }
    const isAgent = step.type === 'custom_agent';
    // Seed 003 keys tools by id; Flowbench reads `server/tool`, and looks a bare name up on every
    // connected MCP server when the step runs (TOOL_NOT_FOUND names what exists when none has it).
    const tools = isRecord(step.tools)
      ? Object.entries(step.tools)
          .filter(([, v]) => !isRecord(v) || v.enabled !== false)
          .map(([tool]) => {
            const at = tool.indexOf('/');
            return at > 0 ? { server: tool.slice(0, at), tool: tool.slice(at + 1) } : { server: '', tool };
          })
      : [];
    nodes.push({
      id,
      type: isAgent ? 'agent' : 'llm',
      label,
      position: gridPosition(column++),
      config: clean({
        model: asString(step.model),
        system: rewrite(asString(step.system_prompt), `steps[${index}].system_prompt`, id),
        prompt: '',
        tools: isAgent ? tools : undefined,
      }),
      metadata,
    });
    connect(id);
    previous = { id, port: 'out' };
  });
  const last = [...steps].reverse().find((s) => s.type !== 'stop_checker');
  nodes.push({
    id: 'result',
    type: 'output',
    label: 'Result',
    position: gridPosition(column),
    config: {
      mode: 'return_values',
      returnValues: last ? [{ id: 'result', text: `{{nodes.${ids.get(asString(last.uuid))}.output}}` }] : [],
    },
  });
  connect('result');

  const name = asString(workflow.name, 'Imported workflow');
  return {
    format: 'workflow',
    problems,
    flow: {
      schemaVersion: 1,
      name,
      description: asString(workflow.description),
      tool: {
        name: toolNameFrom(name),
        description: asString(workflow.description),
        enabled: workflow.is_active !== false,
      },
      parameters: [
        {
          // Seed 003's trigger data may be any JSON; <<trigger_output>> shows it as text or JSON.
          name: 'trigger_output',
          type: 'any',
          required: true,
          description: asString(trigger?.initial_data_description, 'The data that starts the workflow.'),
        },
      ],
      nodes,
      edges,
      metadata: { workflow: clean({ workflow, trigger }) },
    },
  };
}
