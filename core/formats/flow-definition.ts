import { FlowbenchError } from '../model/errors';
import { ownEntry } from '../model/is-record';
import type { Flow, FlowNode } from '../model/flow';
import { ChannelSettingsSchema, type ChannelSettings } from '../model/memory';
import { PARAMETER_TYPES } from '../model/parameter';
import { parseTemplate } from '../model/template';
import { unknownDefinitionFields } from './flow-definition-fields';
import { unusedFieldWarnings } from './known-fields';
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
 * Multi-agent flow definitions (seed 004), JSON or YAML: launch parameters,
 * steps with prompts, overrides and memory, onSuccess / onFailure transitions,
 * an `outputs.resultPayload` mapping, version and status.
 */

export function isFlowDefinition(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.flowId === 'string' && Array.isArray(value.steps);
}

const KEY = 'flowDefinition';
/** Where in its step each setting of a step's node comes from, for a problem about it (see settingSource). */
const STEP_FIELDS: Readonly<Record<string, string>> = {
  system: 'prompt',
  temperature: 'overrides.temperature',
  topP: 'overrides.topP',
  maxTokens: 'overrides.maxTokens',
  agentVersionId: 'agentVersionId',
  memoryReads: 'memoryReads',
  memoryWrites: 'memoryWrites',
};
// resultPayload writes `$steps.x.output.y`; summaryFields write `steps.x.output.y`.
const STEP_REF = /^\$?steps\.([^.\s]+)\.output((?:\.[^.\s]+)*)$/;

/** `$steps.x.output.a.b` → `{{nodes.<x>.output.a.b}}`; anything else is kept as literal text. */
function payloadReference(expression: string, nodeIds: ReadonlyMap<string, string>): string | undefined {
  const match = STEP_REF.exec(expression.trim());
  const nodeId = match ? nodeIds.get(match[1] ?? '') : undefined;
  return match && nodeId ? `{{nodes.${nodeId}.output${match[2] ?? ''}}}` : undefined;
}

export function importFlowDefinition(doc: Record<string, unknown>): ImportedFlow {
  const problems: ImportProblem[] = [];
  const steps = (doc.steps as unknown[]).filter(isRecord);
  if (steps.length === 0) {
    throw new FlowbenchError('VALIDATION_ERROR', 'the flow definition has no steps; it needs at least one');
  }
  const metadata = isRecord(doc.metadata) ? doc.metadata : {};
  const makeId = nodeIdFactory();
  makeId('input');
  makeId('result');
  const nodeIds = new Map(
    steps.map((step) => [asString(step.id), makeId(asString(step.id, asString(step.name, 'step')))]),
  );

  const parameters = (Array.isArray(doc.launchParameters) ? doc.launchParameters : []).filter(isRecord).map((p) => {
    const type = (PARAMETER_TYPES as readonly string[]).includes(asString(p.type)) ? asString(p.type) : 'string';
    return { name: asString(p.name), type, description: asString(p.description), required: p.required !== false };
  });

  const startStepId = asString(doc.startStepId, asString(steps[0]?.id));
  if (!nodeIds.has(startStepId)) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      message: `startStepId "${startStepId}" names no step; the flow starts at the first step`,
      source: 'startStepId',
    });
  }
  const start = nodeIds.get(startStepId) ?? nodeIds.values().next().value;

  const nodes: Record<string, unknown>[] = [
    { id: 'input', type: 'input', label: 'Launch parameters', position: gridPosition(0), config: {} },
  ];
  const edges: Record<string, unknown>[] = [
    { id: 'start', source: 'input', sourcePort: 'out', target: start, targetPort: 'in' },
  ];
  const completing: string[] = [];
  const names = new Set(parameters.map((p) => p.name));
  // Seed 004's runtime hands the launch parameters to the steps as their context: here each step's
  // message lists them (a step's own prompt is its system prompt, or its agent's when it has none).
  const defaults = isRecord(doc.defaults) ? doc.defaults : {};
  // defaults.context is shared context for every step; defaults.overrides.options the sampling of
  // steps that set none of their own.
  const sharedContext =
    defaults.context === undefined
      ? []
      : [`Context: ${typeof defaults.context === 'string' ? defaults.context : JSON.stringify(defaults.context)}`];
  const defaultOverrides = isRecord(defaults.overrides)
    ? isRecord(defaults.overrides.options)
      ? defaults.overrides.options
      : defaults.overrides
    : {};
  const launchContext = [...sharedContext, ...parameters.map((p) => `${p.name}: {{inputs.${p.name}}}`)].join('\n');
  // A prompt that names a launch parameter as {{name}} gets its value.
  const withParameters = (text: string) =>
    text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
      names.has(name) ? `{{inputs.${name}}}` : whole,
    );

  // What this build keeps for export but does not run yet (issue 15): said, not dropped quietly.
  const notHonoured = (source: string, what: string, nodeId?: string) =>
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source,
      ...(nodeId ? { nodeId } : {}),
      message: `${what}: Flowbench keeps it for export but does not apply it yet`,
    });
  problems.push(...unusedFields(doc, nodeIds));
  const channels = sharedChannels(doc, problems);
  // Launch flags (UI / API): Flowbench runs a flow from the editor, the CLI and MCP alike.
  if (isRecord(doc.triggers) && Object.values(doc.triggers).some((flag) => flag === false))
    notHonoured(
      'triggers',
      `launch flags ${JSON.stringify(doc.triggers)} (every flow runs from the editor, the CLI and MCP)`,
    );

  steps.forEach((step, index) => {
    const id = nodeIds.get(asString(step.id)) as string;
    const overrides = isRecord(step.overrides) ? step.overrides : defaultOverrides;
    const config: Record<string, unknown> = {
      system: withParameters(asString(step.prompt)),
      prompt: launchContext,
      ...(typeof overrides.temperature === 'number' ? { temperature: overrides.temperature } : {}),
      ...(typeof overrides.topP === 'number' ? { topP: overrides.topP } : {}),
      ...(typeof overrides.maxTokens === 'number' ? { maxTokens: overrides.maxTokens } : {}),
      ...(typeof step.agentVersionId === 'string' ? { agentVersionId: step.agentVersionId } : {}),
      ...(Array.isArray(step.memoryReads) ? { memoryReads: step.memoryReads } : {}),
      ...(Array.isArray(step.memoryWrites) ? { memoryWrites: step.memoryWrites } : {}),
    };
    const transitions = isRecord(step.transitions) ? step.transitions : {};
    const onFailure = isRecord(transitions.onFailure) ? transitions.onFailure : {};
    // failFlowOnFailure defaults to true: a failure ends the run failed, after its `next` step has run.
    const failsFlow = onFailure.fail !== false;
    const hasFailureNext = asString(onFailure.next) !== '';
    const onError = hasFailureNext ? (failsFlow ? 'fail' : 'continue') : failsFlow ? undefined : 'continue';
    nodes.push({
      id,
      ...(onError ? { onError } : {}),
      // A step runs an agent version: an agent node, resolved in the agent library (the import creates
      // one for a version the library lacks). A step without one is a plain model call.
      type: typeof step.agentVersionId === 'string' ? 'agent' : 'llm',
      label: asString(step.name, id),
      position: gridPosition(index + 1),
      config,
      ...(typeof step.maxAttempts === 'number' ? { maxAttempts: step.maxAttempts } : {}),
      metadata: { [KEY]: { step } },
    });
    for (const [kind, port] of [
      ['onSuccess', 'out'],
      ['onFailure', 'error'],
    ] as const) {
      const transition = isRecord(transitions[kind]) ? transitions[kind] : undefined;
      const next = asString(transition?.next);
      // complete: true ends the run at once, so a `next` beside it is never taken.
      if (kind === 'onSuccess' && transition?.complete === true) {
        completing.push(id);
        if (next)
          problems.push({
            code: 'IMPORT_PROBLEM',
            severity: 'warning',
            nodeId: id,
            source: `steps[${index}].transitions.onSuccess`,
            message: `step "${asString(step.id)}" says complete: true and next "${next}"; completing ends the run, so "${next}" does not run after it`,
          });
        continue;
      }
      if (next) {
        const target = nodeIds.get(next);
        if (target) edges.push({ id: `${id}_${kind}`, source: id, sourcePort: port, target, targetPort: 'in' });
        else {
          problems.push({
            code: 'IMPORT_PROBLEM',
            nodeId: id,
            source: `steps[${index}].transitions.${kind}.next`,
            message: `step "${asString(step.id)}" goes ${kind === 'onSuccess' ? 'on success' : 'on failure'} to "${next}", which is not a step`,
          });
        }
      } else if (kind === 'onSuccess' && transition?.complete !== false) completing.push(id);
    }
  });
  markLoops(edges, start, problems);

  const outputs = isRecord(doc.outputs) ? doc.outputs : {};
  const payload = isRecord(outputs.resultPayload) ? outputs.resultPayload : undefined;
  const fields = Object.entries(payload ?? {}).map(([name, expression]) => {
    const value = payloadReference(asString(expression), nodeIds);
    if (!value) {
      problems.push({
        code: 'IMPORT_PROBLEM',
        nodeId: 'result',
        source: `outputs.resultPayload.${name}`,
        message: `output "${name}" maps "${asString(expression)}", which names no step output`,
      });
    }
    return { name, value: value ?? asString(expression), type: 'any' };
  });
  const summaryFields = (Array.isArray(outputs.summaryFields) ? outputs.summaryFields : []).map((path, index) => {
    const value = payloadReference(asString(path), nodeIds);
    if (!value) {
      problems.push({
        code: 'IMPORT_PROBLEM',
        nodeId: 'result',
        source: `outputs.summaryFields[${index}]`,
        message: `summary field "${asString(path)}" names no step output`,
      });
    }
    return { label: asString(path, `summary ${index + 1}`), value: value ?? asString(path) };
  });
  const resultConfig = {
    ...(payload
      ? { mode: 'structured', fields }
      : { mode: 'return_values', returnValues: completing.map((id) => ({ id, text: `{{nodes.${id}.output}}` })) }),
    ...(summaryFields.length > 0 ? { summaryFields } : {}),
  };
  nodes.push({
    id: 'result',
    type: 'output',
    label: 'Outputs',
    position: gridPosition(steps.length + 1),
    config: resultConfig,
  });
  for (const id of completing)
    edges.push({ id: `${id}_complete`, source: id, sourcePort: 'out', target: 'result', targetPort: 'in' });

  const title = asString(metadata.title, asString(doc.flowId));
  // Its index in the file's list, which may hold entries that are no step.
  const stepOf = new Map(steps.map((step) => [nodeIds.get(asString(step.id)), (doc.steps as unknown[]).indexOf(step)]));
  return {
    format: 'flow-definition',
    problems,
    isPublished: doc.status === 'PUBLISHED',
    // A setting of a step's node comes from the step's field STEP_FIELDS names (memory reads and writes as written).
    settingSource: (nodeId, field) => {
      const index = stepOf.get(nodeId);
      const [, key = '', rest = ''] = /^config\.([A-Za-z]+)(.*)$/.exec(field) ?? [];
      const from = ownEntry(STEP_FIELDS, key);
      return index === undefined || from === undefined ? undefined : `steps[${index}].${from}${rest}`;
    },
    flow: {
      schemaVersion: 1,
      name: title,
      description: asString(metadata.description),
      // is_active: false keeps it out of MCP clients' tool list, as the seed's flag does.
      tool: {
        name: toolNameFrom(asString(doc.flowId)),
        description: asString(metadata.description),
        enabled: doc.is_active !== false,
      },
      parameters,
      nodes,
      edges,
      memory: { channels },
      metadata: { [KEY]: clean({ ...doc, steps: undefined }) },
    },
  };
}

/** Seed 004 retired these for `maxAttempts` (its rule 4): a file from before it may still have them. */
const RETIRED = new Set(['retryPolicy', 'timeoutSec']);

/**
 * The fields of the file that seed 004 does not define (a retired
 * `retryPolicy`, a misspelt `agentVersionID`), said where they are.
 */
function unusedFields(doc: Record<string, unknown>, nodeIds: ReadonlyMap<string, string>): ImportProblem[] {
  const steps = Array.isArray(doc.steps) ? (doc.steps as unknown[]) : [];
  return unusedFieldWarnings(unknownDefinitionFields(doc), 'flow definition', {
    nodeOf: {
      list: 'steps',
      idAt: (index) => {
        const step = steps[index];
        return isRecord(step) ? nodeIds.get(asString(step.id)) : undefined;
      },
    },
    hint: (name) => (RETIRED.has(name) ? ' (seed 004 retired it: `maxAttempts` is the retry setting)' : ''),
    // A channel's entries are written back from the flow's channels (exportFlowDefinition): nothing else of them is kept.
    isKept: (source) => !source.startsWith('memory.sharedChannels['),
  });
}

/** `memory.sharedChannels` as the flow's channels; an entry that is not a channel is reported, not dropped quietly. */
function sharedChannels(doc: Record<string, unknown>, problems: ImportProblem[]): ChannelSettings[] {
  const listed = isRecord(doc.memory) && Array.isArray(doc.memory.sharedChannels) ? doc.memory.sharedChannels : [];
  return listed.flatMap((raw, index) => {
    const parsed = ChannelSettingsSchema.safeParse(raw);
    if (parsed.success) {
      // Seed 004 has no per-conversation channel: a file's `perConversation` is said as a field it lacks, not applied.
      const shared = { ...parsed.data };
      delete shared.perConversation;
      return [shared];
    }
    problems.push({
      code: 'IMPORT_PROBLEM',
      source: `memory.sharedChannels[${index}]`,
      message: `memory channel ${index + 1} cannot be used: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'channel'}: ${i.message}`).join('; ')}`,
    });
    return [];
  });
}

/** The passes Flowbench allows a loop of a seed flow, which sets no limit of its own. */
export const SEED_LOOP_PASSES = 3;

/**
 * Transitions that go back to an earlier step (review → gather again) become
 * loop edges: found by a depth-first walk from the start step, each edge to a
 * step still on the walk's path goes back. The seed sets no limit, so each
 * gets SEED_LOOP_PASSES, said as a warning.
 */
function markLoops(edges: Record<string, unknown>[], start: string | undefined, problems: ImportProblem[]): void {
  const leaving = new Map<string, Record<string, unknown>[]>();
  for (const edge of edges) {
    const list = leaving.get(String(edge.source));
    if (list) list.push(edge);
    else leaving.set(String(edge.source), [edge]);
  }
  const state = new Map<string, 'open' | 'done'>();
  // An explicit stack, not recursion: a long chain of steps in a file cannot overflow the call stack.
  const frames: { id: string; next: number }[] = [];
  const open = (id: string) => {
    state.set(id, 'open');
    frames.push({ id, next: 0 });
  };
  if (start) open(start);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as { id: string; next: number };
    const edge = (leaving.get(frame.id) ?? [])[frame.next++];
    if (!edge) {
      state.set(frame.id, 'done');
      frames.pop();
      continue;
    }
    const target = String(edge.target);
    if (state.get(target) === 'open') {
      edge.loop = { maxIterations: SEED_LOOP_PASSES };
      problems.push({
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        nodeId: frame.id,
        source: `transition ${frame.id} → ${target}`,
        message: `step "${frame.id}" goes back to "${target}": a loop, which Flowbench runs at most ${SEED_LOOP_PASSES} passes (the file sets no limit; change it on the edge)`,
      });
    } else if (!state.has(target)) open(target);
  }
}

/** The step a node came from, to keep the fields Flowbench does not model. */
function keptStep(node: FlowNode): Record<string, unknown> {
  const kept = node.metadata?.[KEY];
  return isRecord(kept) && isRecord(kept.step) ? kept.step : {};
}

/** `{{nodes.x.output.a}}` back to `$steps.<step id>.output.a`. */
function payloadExpression(value: string, stepIds: ReadonlyMap<string, string>): string {
  const segments = parseTemplate(value.trim());
  const only = segments.length === 1 ? segments[0] : undefined;
  if (only?.kind === 'ref' && only.ref.scope === 'nodes' && only.ref.field === 'output') {
    return ['$steps', stepIds.get(only.ref.nodeId) ?? only.ref.nodeId, 'output', ...only.ref.path].join('.');
  }
  return value;
}

/**
 * onFailure's `fail` from the node's onError: the seed fails the flow unless told
 * not to, while a Flowbench error edge goes on unless the node says `fail`.
 */
function failureTransition(
  node: FlowNode,
  transition: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const goesOn = node.onError === 'continue' || (node.onError === undefined && typeof transition?.next === 'string');
  if (goesOn) return { ...transition, fail: false };
  if (transition?.fail === false) return { ...transition, fail: undefined };
  return transition;
}

/** The output's summary fields as seed 004 writes them: `steps.x.output.y`, without resultPayload's `$`. */
function summaryOf(output: FlowNode, stepIds: ReadonlyMap<string, string>): { summaryFields?: string[] } {
  const listed = output.config.summaryFields as { label: string; value: string }[] | undefined;
  if (!listed?.length) return {};
  return { summaryFields: listed.map((f) => payloadExpression(f.value, stepIds).replace(/^\$/, '')) };
}

/** Writes a flow as a seed-004 definition; only input, llm and output nodes can be expressed. */
export function exportFlowDefinition(flow: Flow, publishedVersion: number | undefined): Record<string, unknown> {
  const isStep = (n: FlowNode) =>
    n.type === 'llm' || (n.type === 'agent' && typeof n.config.agentVersionId === 'string');
  const unsupported = flow.nodes.filter((n) => !['input', 'output'].includes(n.type) && !isStep(n));
  if (unsupported.length > 0) {
    throw new FlowbenchError(
      'UNSUPPORTED_FORMAT',
      `a flow definition has only steps (llm nodes, and agent nodes running a library agent); this flow also has ${unsupported.map((n) => `${n.type} "${n.id}"`).join(', ')}`,
    );
  }
  const kept = isRecord(flow.metadata[KEY]) ? flow.metadata[KEY] : {};
  const keptDefaultsRoot = isRecord(kept.defaults) && isRecord(kept.defaults.overrides) ? kept.defaults.overrides : {};
  const keptDefaults = isRecord(keptDefaultsRoot.options) ? keptDefaultsRoot.options : keptDefaultsRoot;
  const steps = flow.nodes.filter(isStep);
  const stepIds = new Map(steps.map((n) => [n.id, asString(keptStep(n).id, n.id)]));
  const outputIds = new Set(flow.nodes.filter((n) => n.type === 'output').map((n) => n.id));
  const transitionOf = (node: FlowNode, port: 'out' | 'error', kind: 'onSuccess' | 'onFailure') => {
    const keptTransitions = isRecord(keptStep(node).transitions)
      ? (keptStep(node).transitions as Record<string, unknown>)
      : {};
    const original = isRecord(keptTransitions[kind]) ? keptTransitions[kind] : undefined;
    const edge = flow.edges.find((e) => e.source === node.id && e.sourcePort === port && !outputIds.has(e.target));
    if (edge) return { ...original, next: stepIds.get(edge.target) ?? edge.target };
    // A transition to a step that never existed is kept as it was imported.
    if (original && typeof original.next === 'string' && !flow.nodes.some((n) => stepIds.get(n.id) === original.next))
      return original;
    if (original) return { ...original, next: undefined };
    return undefined;
  };
  const exportedSteps = steps.map((node) => {
    const original = keptStep(node);
    const config = node.config;
    // A step that took its sampling from defaults.overrides writes none of its own back.
    const inherited = (key: string) =>
      !isRecord(original.overrides) && keptDefaults[key] !== undefined && keptDefaults[key] === config[key];
    const own = (key: 'temperature' | 'topP' | 'maxTokens') =>
      typeof config[key] === 'number' && !inherited(key) ? { [key]: config[key] } : {};
    const overrides = {
      ...(isRecord(original.overrides) ? original.overrides : {}),
      ...own('temperature'),
      ...own('topP'),
      ...own('maxTokens'),
    };
    const onSuccess = transitionOf(node, 'out', 'onSuccess');
    const onFailure = failureTransition(node, transitionOf(node, 'error', 'onFailure'));
    return clean({
      ...original,
      id: stepIds.get(node.id),
      name: node.label || node.id,
      agentVersionId: config.agentVersionId,
      // Launch parameters are written back as the seed names them: {{name}}.
      prompt: asString(config.system).replace(/\{\{\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, '{{$1}}') || undefined,
      overrides: Object.keys(overrides).length > 0 ? overrides : undefined,
      memoryReads: config.memoryReads,
      memoryWrites: config.memoryWrites,
      transitions: onSuccess || onFailure ? clean({ onSuccess, onFailure }) : undefined,
      maxAttempts: node.maxAttempts ?? original.maxAttempts,
    });
  });
  const output = flow.nodes.find((n) => n.type === 'output' && n.config.mode === 'structured');
  const fields = (output?.config.fields ?? []) as { name: string; value: string }[];
  const keptOutputs = isRecord(kept.outputs) ? kept.outputs : {};
  const start = flow.edges.find(
    (e) => flow.nodes.find((n) => n.id === e.source)?.type === 'input' && stepIds.has(e.target),
  );
  const keptMetadata = isRecord(kept.metadata) ? kept.metadata : {};
  const definition = clean({
    ...kept,
    flowId: asString(kept.flowId, flow.tool.name),
    version: typeof kept.version === 'number' ? kept.version : (publishedVersion ?? 1),
    metadata: { ...keptMetadata, title: flow.name, description: flow.description },
    launchParameters: flow.parameters.map((p) => {
      const original = (Array.isArray(kept.launchParameters) ? kept.launchParameters : []).find(
        (o) => isRecord(o) && o.name === p.name,
      );
      const base = isRecord(original) ? original : {};
      // Fields the source left out stay out while their value is the default.
      return clean({
        ...base,
        name: p.name,
        type: p.type,
        required: base.required === undefined && p.required ? undefined : p.required,
        description: p.description || (base.description as string | undefined),
      });
    }),
    // The flow's channels, edited in Flowbench or not, are the definition's shared channels.
    memory:
      flow.memory.channels.length > 0 || isRecord(kept.memory)
        ? {
            ...(isRecord(kept.memory) ? kept.memory : {}),
            // Seed 004 has no per-conversation channels: the export's leftOut says so.
            sharedChannels: flow.memory.channels.map(({ perConversation: _, ...shared }) => shared),
          }
        : undefined,
    startStepId: kept.startStepId !== undefined ? (start ? stepIds.get(start.target) : kept.startStepId) : undefined,
    steps: exportedSteps,
    outputs: output
      ? {
          ...keptOutputs,
          resultPayload: Object.fromEntries(fields.map((f) => [f.name, payloadExpression(f.value, stepIds)])),
          ...summaryOf(output, stepIds),
        }
      : Object.keys(keptOutputs).length > 0
        ? keptOutputs
        : undefined,
    status: kept.status ?? (publishedVersion !== undefined ? 'PUBLISHED' : 'DRAFT'),
  });
  // Nested fields set to undefined above (a removed transition target) disappear here.
  return JSON.parse(JSON.stringify(definition)) as Record<string, unknown>;
}
