import { FlowbenchError } from '../model/errors';
import type { Flow, FlowNode } from '../model/flow';
import { toolLabel } from '../model/tools';
import { asString, clean, isRecord } from './shared';

/**
 * Writes a flow back as a seed-003 workflow `{ workflow, trigger, steps }`: a
 * chain from the input through llm (CustomLLM), agent (CustomAgent) and
 * condition-with-stop (StopWorkflowChecker) nodes. What the format cannot say
 * (a branch, a user prompt beside the system prompt, an operator it lacks) is
 * refused with UNSUPPORTED_FORMAT naming the node, never approximated.
 */

const SEED_OPERATORS = ['equals', 'not_equals', 'contains', 'greater_than', 'less_than'];

const unsupported = (why: string) =>
  new FlowbenchError('UNSUPPORTED_FORMAT', `a seed-003 workflow cannot express this flow: ${why}`);

/**
 * A UUID-shaped id made from the flow and node ids, for a step no import gave
 * one: the same flow exports the same ids every time (diffable files).
 */
function stableUuid(seed: string): string {
  let hex = '';
  for (let round = 0; hex.length < 32; round++) {
    let hash = 0x811c9dc5 ^ round;
    for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
    hex += (hash >>> 0).toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The step an import kept for a node, to give back what Flowbench does not model (uuids, user ids, summaries). */
function keptStep(node: FlowNode): Record<string, unknown> {
  const kept = node.metadata?.workflow;
  return isRecord(kept) && isRecord(kept.step) ? kept.step : {};
}

/** The agent's tools keyed by id: its own enabled, the imported ones it no longer uses kept as disabled. */
function toolsOf(tools: readonly { server: string; tool: string }[], kept: unknown): Record<string, unknown> {
  const before = isRecord(kept) ? kept : {};
  const used = new Set(tools.map(toolLabel));
  const entry = (id: string, enabled: boolean) => ({ ...(isRecord(before[id]) ? before[id] : {}), enabled });
  const pairs: [string, Record<string, unknown>][] = [
    ...Object.keys(before).map((id): [string, Record<string, unknown>] => [id, entry(id, used.has(id))]),
    ...[...used].filter((id) => !(id in before)).map((id): [string, Record<string, unknown>] => [id, entry(id, true)]),
  ];
  return Object.fromEntries(pairs);
}

export function exportWorkflow(flow: Flow): Record<string, unknown> {
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const next = (node: FlowNode, port: string) =>
    flow.edges.filter((e) => e.source === node.id && e.sourcePort === port).map((e) => byId.get(e.target) as FlowNode);
  const input = flow.nodes.find((n) => n.type === 'input');
  if (!input) throw unsupported('it has no input node (the trigger)');

  // Walk the chain: each step leads to exactly one next node; a condition's true port may only stop.
  const chain: FlowNode[] = [];
  let at = next(input, 'out');
  while (at.length > 0) {
    if (at.length > 1) throw unsupported(`it branches after "${chain.at(-1)?.id ?? input.id}"`);
    const node = at[0] as FlowNode;
    if (node.type === 'output') break;
    if (!['llm', 'agent', 'condition'].includes(node.type))
      throw unsupported(`node "${node.id}" is a ${node.type} node`);
    chain.push(node);
    if (node.type === 'condition') {
      if (!next(node, 'true').every((n) => n.type === 'stop'))
        throw unsupported(`condition "${node.id}" does more than stop the run when it holds`);
      at = next(node, 'false');
    } else at = next(node, 'out');
  }
  const uuids = new Map(chain.map((n) => [n.id, asString(keptStep(n).uuid, stableUuid(`${flow.id}/${n.id}`))]));
  const text = (value: string, node: FlowNode) =>
    value
      .replace(/\{\{\s*inputs\.trigger_output\s*\}\}/g, '<<trigger_output>>')
      .replace(/\{\{\s*nodes\.([A-Za-z0-9_-]+)\.output\s*\}\}/g, (whole, id: string) => {
        const uuid = uuids.get(id);
        if (!uuid) throw unsupported(`node "${node.id}" reads ${whole}, which is not a step of the chain`);
        return `<<step_output.${uuid}>>`;
      });

  const steps = chain.map((node) => {
    const base = { ...keptStep(node), uuid: uuids.get(node.id), name: node.label || node.id };
    const config = node.config;
    if (node.type === 'condition') {
      const rules = (config.rules as { value: string; path: string; operator: string; operand?: unknown }[]) ?? [];
      if (rules.length > 1 && config.match !== 'any')
        throw unsupported(`condition "${node.id}" needs all its rules; a stop checker stops when any holds`);
      return clean({
        ...base,
        type: 'stop_checker',
        stop_conditions: rules.map((rule) => {
          const ref = /^\{\{\s*nodes\.([A-Za-z0-9_-]+)\.output\s*\}\}$/.exec(rule.value.trim());
          const uuid = ref ? uuids.get(ref[1] as string) : undefined;
          if (!uuid) throw unsupported(`condition "${node.id}" tests ${rule.value}, not a step's output`);
          if (!SEED_OPERATORS.includes(rule.operator))
            throw unsupported(
              `condition "${node.id}" uses ${rule.operator}; a stop checker knows ${SEED_OPERATORS.join(', ')}`,
            );
          return {
            step_definition_uuid: uuid,
            extraction_json_path: rule.path,
            operator: rule.operator,
            target_value: rule.operand,
          };
        }),
      });
    }
    if (asString(config.prompt).trim() !== '')
      throw unsupported(`node "${node.id}" has a user prompt; a workflow step has its system prompt only`);
    const tools = (config.tools as { server: string; tool: string }[] | undefined) ?? [];
    return clean({
      ...base,
      type: node.type === 'agent' ? 'custom_agent' : 'custom_llm',
      model: asString(config.model),
      system_prompt: text(asString(config.system), node),
      tools: node.type === 'agent' ? toolsOf(tools, keptStep(node).tools) : undefined,
    });
  });

  const kept = isRecord(flow.metadata.workflow) ? flow.metadata.workflow : {};
  const keptWorkflow = isRecord(kept.workflow) ? kept.workflow : {};
  const keptTrigger = isRecord(kept.trigger) ? kept.trigger : {};
  const triggerData = flow.parameters.find((p) => p.name === 'trigger_output');
  return {
    workflow: clean({
      ...keptWorkflow,
      name: flow.name,
      description: flow.description,
      is_active: flow.tool.enabled,
      steps: chain.map((n) => uuids.get(n.id)),
    }),
    trigger: clean({
      ...keptTrigger,
      initial_data_description: triggerData?.description ?? asString(keptTrigger.initial_data_description),
    }),
    steps,
  };
}
