import { z } from 'zod';
import { testCaseProblems } from './test-cases';
import { FlowEdgeSchema, FlowNodeSchema, FlowSchema, type Flow, type FlowEdge, type FlowNode } from './flow';
import { buildAdjacency, findCycles, reachable, topologicalOrder, upstreamTest, type Adjacency } from './graph';
import { toolNameProblem } from './ids';
import { isNestedDeeperThan, MAX_NESTING_DEPTH } from './limits';
import { findLoops, isLoopEdge } from './loops';
import type { NodeCatalogue } from './node-catalogue';
import { parseNodeConfig } from './node-config';
import { checkParameterValue, ParameterSchema, type Parameter } from './parameter';
import { importNoteText, passedOver, type Problem, type ProblemCode } from './problems';
import { formatReference, parseTemplate, type TemplateSegment } from './template';
import type { ValidationMemo } from './validation-memo';

export interface ValidationContext {
  /** The node types flows may use (core/nodes' registry, or a test's). */
  catalogue: NodeCatalogue;
  /** True when another flow (not `flowId`) already uses the tool name. */
  isToolNameTaken?: (toolName: string, flowId: string) => boolean;
  /** Kept between validations of a flow being edited, so unchanged nodes and edges are not parsed again. */
  memo?: ValidationMemo;
}

export interface ValidationResult {
  /** The flow with defaults filled in and configs migrated; absent when its shape is broken. */
  flow?: Flow;
  problems: Problem[];
}

// The flow's own fields are parsed first; nodes, edges and parameters one by
// one, so one broken node does not hide the problems of the others.
const FlowShellSchema = z.lazy(() =>
  FlowSchema.unwrap().extend({
    parameters: z.array(z.unknown()).default([]),
    nodes: z.array(z.unknown()),
    edges: z.array(z.unknown()).default([]),
  }),
);

const issuePath = (issue: z.core.$ZodIssue, prefix?: string): string =>
  [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.');

function rawId(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' ? id : undefined;
}

/** Validates a flow (parsed JSON of any origin) and reports every problem at once. */
export function validateFlow(input: unknown, context: ValidationContext): ValidationResult {
  const registry = context.catalogue;
  const problems: Problem[] = [];
  const add = (code: ProblemCode, message: string, where: Omit<Problem, 'code' | 'message' | 'severity'> = {}) =>
    problems.push({ code, severity: 'error', message, ...where });
  const warn = (code: ProblemCode, message: string, where: Omit<Problem, 'code' | 'message' | 'severity'> = {}) =>
    problems.push({ code, severity: 'warning', message, ...where });

  if (isNestedDeeperThan(input, MAX_NESTING_DEPTH)) {
    add('INVALID_FLOW', `the flow nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels, the limit`);
    return { problems };
  }
  const shell = FlowShellSchema.safeParse(input);
  if (!shell.success) {
    for (const issue of shell.error.issues) {
      const field = issuePath(issue);
      add(
        field.startsWith('tool.name') ? 'INVALID_TOOL_NAME' : 'INVALID_FLOW',
        `${field || 'flow'}: ${issue.message}`,
        { field },
      );
    }
    return { problems };
  }
  const doc = shell.data;
  let isShapeValid = true;

  const toolProblem = toolNameProblem(doc.tool.name);
  if (toolProblem) {
    add('INVALID_TOOL_NAME', toolProblem, { field: 'tool.name' });
  } else if (context.isToolNameTaken?.(doc.tool.name, doc.id)) {
    add('DUPLICATE_TOOL_NAME', `another flow already uses the tool name "${doc.tool.name}"`, { field: 'tool.name' });
  }

  for (const problem of testCaseProblems(doc.tests))
    add('INVALID_TEST_CASE', problem.message, { field: problem.field });

  const parameters = parseParameters(doc.parameters, add);
  if (parameters === undefined) isShapeValid = false;

  const nodes: FlowNode[] = [];
  const nodesById = new Map<string, FlowNode>();
  const memo = context.memo;
  /** Nodes whose config parsed against their type's schema: node.config is that parse. */
  const validConfigs = new Set<FlowNode>();
  doc.nodes.forEach((raw, index) => {
    // A node the memo knows parsed cleanly, config and all, as it is now: not parsed again.
    const known = memo && typeof raw === 'object' && raw !== null ? memo.nodes.get(raw) : undefined;
    let node = known;
    if (!node) {
      const parsed = FlowNodeSchema.safeParse(raw);
      if (!parsed.success) {
        isShapeValid = false;
        const nodeId = rawId(raw);
        for (const issue of parsed.error.issues) {
          add('INVALID_FLOW', `nodes[${index}].${issuePath(issue)}: ${issue.message}`, {
            ...(nodeId !== undefined ? { nodeId } : {}),
            field: issuePath(issue),
          });
        }
        return;
      }
      node = parsed.data;
    }
    if (nodesById.has(node.id)) {
      isShapeValid = false;
      add('DUPLICATE_NODE_ID', `two nodes have the id "${node.id}"; node ids must be unique`, { nodeId: node.id });
      return;
    }
    nodes.push(node);
    nodesById.set(node.id, node);
    if (known) {
      validConfigs.add(known);
      return;
    }
    const definition = registry.get(node.type);
    if (!definition) {
      add(
        'UNKNOWN_NODE_TYPE',
        `node "${node.id}" has unknown type "${node.type}" (known: ${registry.types().join(', ')})`,
        {
          nodeId: node.id,
          field: 'type',
        },
      );
      return;
    }
    const config = parseNodeConfig(definition, node);
    if (config.ok) {
      node.config = config.config;
      node.version = config.version;
      validConfigs.add(node);
      if (typeof raw === 'object' && raw !== null) memo?.nodes.set(raw, node);
      return;
    }
    if (config.message)
      add('INVALID_CONFIG', `node "${node.id}": ${config.message}`, { nodeId: node.id, field: 'version' });
    for (const issue of config.issues) {
      add('INVALID_CONFIG', `node "${node.id}" ${issuePath(issue, 'config')}: ${issue.message}`, {
        nodeId: node.id,
        field: issuePath(issue, 'config'),
      });
    }
  });

  const { edges, isValid: areEdgesValid } = checkEdges(doc.edges, nodesById, registry, add, memo);
  if (!areEdgesValid) isShapeValid = false;
  const liveEdges = edges.filter((e) => nodesById.has(e.source) && nodesById.has(e.target));
  // Loop edges go back on purpose: the order of a pass is the graph without them.
  const forward = buildAdjacency(
    nodesById.keys(),
    liveEdges.filter((e) => !isLoopEdge(e)),
  );
  const { blocked } = topologicalOrder(forward);
  for (const cycle of findCycles(forward, blocked)) {
    add(
      'CIRCULAR_DEPENDENCY',
      `the edges form a cycle: ${cycle.join(' → ')}; to repeat these steps, make the edge that goes back a loop with an iteration limit`,
      { nodeId: cycle[0] as string },
    );
  }
  for (const problem of findLoops(nodesById.keys(), liveEdges).problems) {
    add(problem.code, problem.message, { edgeId: problem.edgeId });
  }
  checkReachable(nodes, forward, registry, warn);

  // A node may read what a later node of its loop left on the previous pass.
  const adjacency = buildAdjacency(nodesById.keys(), liveEdges);
  checkReferences(nodes, validConfigs, parameters ?? [], adjacency, registry, add, warn, memo);
  checkImportLeftovers(doc.metadata, add, warn);
  checkNodeConfigs(nodes, validConfigs, registry, problems);
  checkDeactivatedAndPinned(nodes, registry, add, warn);

  const specs = nodes.map((n) => registry.get(n.type));
  if (nodes.length > 0 && !specs.some((spec) => spec?.isResult)) {
    warn('MISSING_OUTPUT', 'the flow has no output node, so a run returns nothing');
  }
  if (specs.filter((spec) => spec?.isEntry).length > 1) {
    warn('MULTIPLE_INPUTS', 'the flow has more than one input node; they all carry the same parameters');
  }

  const deactivated = new Set(nodes.filter((n) => n.disabled).map((n) => n.id));
  const said = passedOver(problems, deactivated);
  if (!isShapeValid || parameters === undefined) return { problems: said };
  return { flow: { ...doc, parameters, nodes, edges }, problems: said };
}

/**
 * Each deactivated node and pinned output said (a run passes over the one,
 * takes the other); an input or output node can be neither: a run starts or ends there.
 */
function checkDeactivatedAndPinned(nodes: readonly FlowNode[], catalogue: NodeCatalogue, add: Add, warn: Add): void {
  for (const node of nodes) {
    if (!node.disabled) continue;
    const spec = catalogue.get(node.type);
    const at = { nodeId: node.id, field: 'disabled' };
    if (spec?.isEntry)
      add('DEACTIVATED_NODE', `node "${node.id}" is deactivated, but a run starts at the input node`, at);
    else if (spec?.isResult)
      add(
        'DEACTIVATED_NODE',
        `node "${node.id}" is deactivated, but what a run returns comes from the output node`,
        at,
      );
    else
      warn('DEACTIVATED_NODE', `node "${node.id}" is deactivated: runs pass over it and hand on what came into it`, at);
  }
  for (const node of nodes) {
    if (!node.pin) continue;
    const spec = catalogue.get(node.type);
    const at = { nodeId: node.id, field: 'pin' };
    if (spec?.isEntry || spec?.isResult)
      add('PINNED_OUTPUT', `node "${node.id}" has a pinned output, but the input and output nodes always run`, at);
    else
      warn(
        'PINNED_OUTPUT',
        `node "${node.id}" has a pinned output: runs started here take it instead of running the node; clients' calls run it`,
        at,
      );
  }
}

/**
 * A flow with an input node runs what the input leads to, as n8n and Dify do:
 * a node nothing connects to the input never runs, and saying so beats a run
 * that quietly leaves it out.
 */
function checkReachable(nodes: readonly FlowNode[], forward: Adjacency, catalogue: NodeCatalogue, warn: Add): void {
  const entries = nodes.filter((n) => catalogue.get(n.type)?.isEntry).map((n) => n.id);
  if (entries.length === 0) return;
  const seen = reachable(entries, (id) => forward.outgoing.get(id));
  for (const node of nodes) {
    if (seen.has(node.id) || !catalogue.get(node.type)) continue;
    warn('UNREACHABLE_NODE', `node "${node.id}" is not connected to the input, so it never runs`, {
      nodeId: node.id,
    });
  }
}

/** Problems an importer recorded. */
function checkImportLeftovers(metadata: Record<string, unknown>, add: Add, warn: Add): void {
  const recorded = Array.isArray(metadata.importProblems) ? metadata.importProblems : [];
  for (const item of recorded) {
    const text = importNoteText(item);
    if (text === undefined) continue;
    const { nodeId, severity } = item as { nodeId?: unknown; severity?: unknown };
    // A warning says what the import changed (a tool name rewritten); the flow can still publish.
    (severity === 'warning' ? warn : add)('IMPORT_PROBLEM', text, typeof nodeId === 'string' ? { nodeId } : {});
  }
}

/** What each node type finds wrong in its parsed config beyond its schema (seed 004's unresolved agents, …). */
function checkNodeConfigs(
  nodes: readonly FlowNode[],
  validConfigs: ReadonlySet<FlowNode>,
  catalogue: NodeCatalogue,
  problems: Problem[],
): void {
  for (const node of nodes) {
    const definition = catalogue.get(node.type);
    // A config that breaks its schema is already a problem; its checks would read fields that are not there.
    if (!definition?.check || !validConfigs.has(node)) continue;
    for (const problem of definition.check(node.config)) {
      problems.push({ ...problem, message: `node "${node.id}" ${problem.message}`, nodeId: node.id });
    }
  }
}

type Add = (code: ProblemCode, message: string, where?: Omit<Problem, 'code' | 'message' | 'severity'>) => void;

function parseParameters(raw: readonly unknown[], add: Add): Parameter[] | undefined {
  const parameters: Parameter[] = [];
  let isValid = true;
  const names = new Set<string>();
  raw.forEach((item, index) => {
    const parsed = ParameterSchema.safeParse(item);
    if (!parsed.success) {
      isValid = false;
      for (const issue of parsed.error.issues) {
        add('INVALID_PARAMETER', `parameters[${index}].${issuePath(issue)}: ${issue.message}`, {
          field: `parameters.${index}.${issuePath(issue)}`,
        });
      }
      return;
    }
    const parameter = parsed.data;
    const field = `parameters.${parameter.name}`;
    if (names.has(parameter.name)) {
      isValid = false;
      add('DUPLICATE_PARAMETER', `two parameters are named "${parameter.name}"`, { field });
      return;
    }
    names.add(parameter.name);
    if (parameter.type === 'enum' && (parameter.enum ?? []).length === 0) {
      add('INVALID_PARAMETER', `enum parameter "${parameter.name}" lists no allowed values`, { field });
    }
    if (parameter.default !== undefined) {
      const reason = checkParameterValue(parameter, parameter.default);
      if (reason) add('INVALID_PARAMETER', `default of "${parameter.name}": ${reason}`, { field: `${field}.default` });
    }
    parameters.push(parameter);
  });
  return isValid ? parameters : undefined;
}

function checkEdges(
  raw: readonly unknown[],
  nodesById: ReadonlyMap<string, FlowNode>,
  registry: NodeCatalogue,
  add: Add,
  memo: ValidationMemo | undefined,
): { edges: FlowEdge[]; isValid: boolean } {
  const edges: FlowEdge[] = [];
  let isValid = true;
  const ids = new Set<string>();
  const joins = new Set<string>();
  raw.forEach((item, index) => {
    const isObject = typeof item === 'object' && item !== null;
    const known = memo && isObject ? memo.edges.get(item) : undefined;
    const parsed = known ? ({ success: true, data: known } as const) : FlowEdgeSchema.safeParse(item);
    if (parsed.success && !known && isObject) memo?.edges.set(item, parsed.data);
    const edgeId = rawId(item);
    if (!parsed.success) {
      isValid = false;
      for (const issue of parsed.error.issues) {
        add('INVALID_FLOW', `edges[${index}].${issuePath(issue)}: ${issue.message}`, {
          ...(edgeId !== undefined ? { edgeId } : {}),
        });
      }
      return;
    }
    const edge = parsed.data;
    if (ids.has(edge.id)) {
      isValid = false;
      add('DUPLICATE_EDGE_ID', `two edges have the id "${edge.id}"; edge ids must be unique`, { edgeId: edge.id });
      return;
    }
    ids.add(edge.id);
    edges.push(edge);
    for (const [end, nodeId] of [
      ['starts at', edge.source],
      ['ends at', edge.target],
    ] as const) {
      if (!nodesById.has(nodeId)) {
        isValid = false;
        add('DANGLING_EDGE', `edge "${edge.id}" ${end} node "${nodeId}", which does not exist`, { edgeId: edge.id });
      }
    }
    const source = nodesById.get(edge.source);
    const target = nodesById.get(edge.target);
    const sourceDef = source && registry.get(source.type);
    const targetDef = target && registry.get(target.type);
    if (sourceDef && !sourceDef.outputs.some((p) => p.id === edge.sourcePort)) {
      add('UNKNOWN_PORT', portMessage(edge, 'output', edge.sourcePort, edge.source, sourceDef.outputs), {
        edgeId: edge.id,
        nodeId: edge.source,
      });
    }
    if (targetDef && !targetDef.inputs.some((p) => p.id === edge.targetPort)) {
      add('UNKNOWN_PORT', portMessage(edge, 'input', edge.targetPort, edge.target, targetDef.inputs), {
        edgeId: edge.id,
        nodeId: edge.target,
      });
    }
    const join = `${edge.source}\u0000${edge.sourcePort}\u0000${edge.target}\u0000${edge.targetPort}`;
    if (joins.has(join)) {
      add(
        'DUPLICATE_EDGE',
        `edge "${edge.id}" repeats a connection from ${edge.source}.${edge.sourcePort} to ${edge.target}.${edge.targetPort}`,
        { edgeId: edge.id },
      );
    }
    joins.add(join);
  });
  return { edges, isValid };
}

function portMessage(
  edge: FlowEdge,
  side: 'input' | 'output',
  port: string,
  nodeId: string,
  ports: readonly { id: string }[],
): string {
  const known = ports.map((p) => `"${p.id}"`).join(', ') || 'none';
  return `edge "${edge.id}" uses ${side} port "${port}" of node "${nodeId}", which has ${side} ports: ${known}`;
}

/** A node's templates, field by field, parsed into text and references (kept in the memo, when given, by config). */
function templateSegments(
  config: Record<string, unknown>,
  templates: (config: Record<string, unknown>) => readonly { field: string; text: string }[],
  memo: ValidationMemo | undefined,
): readonly { field: string; segments: TemplateSegment[] }[] {
  const known = memo?.templates.get(config);
  if (known) return known;
  const parsed = templates(config).map(({ field, text }) => ({ field, segments: parseTemplate(text) }));
  memo?.templates.set(config, parsed);
  return parsed;
}

function checkReferences(
  nodes: readonly FlowNode[],
  validConfigs: ReadonlySet<FlowNode>,
  parameters: readonly Parameter[],
  adjacency: Adjacency,
  registry: NodeCatalogue,
  add: Add,
  warn: Add,
  memo: ValidationMemo | undefined,
): void {
  const parameterNames = new Set(parameters.map((p) => p.name));
  const nodesById = new Map(nodes.map((n) => [n.id, n]));
  const isUpstream = upstreamTest(adjacency);
  /**
   * One template's references: each must name a parameter, a node upstream,
   * the item of a node that runs for each, or a secret in a field that may read one.
   */
  const check = (
    node: FlowNode,
    field: string,
    where: Omit<Problem, 'code' | 'message' | 'severity'>,
    segments: readonly TemplateSegment[],
    hasItem: boolean,
    readsSecrets: boolean,
  ) => {
    for (const segment of segments) {
      if (segment.kind === 'text' || segment.kind === 'literal') continue;
      if (segment.kind === 'invalid') {
        add('UNRESOLVED_REFERENCE', `node "${node.id}" ${field}: ${segment.raw} — ${segment.reason}`, where);
        continue;
      }
      const ref = segment.ref;
      const shown = `{{${formatReference(ref)}}}`;
      if (ref.scope === 'item') {
        if (!hasItem) {
          const why = node.forEach
            ? 'the list is read before there is an item'
            : `node "${node.id}" does not run for each item of a list (its Run for each setting)`;
          add('FOR_EACH', `node "${node.id}" ${field}: ${shown} — ${why}`, where);
        }
        continue;
      }
      if (ref.scope === 'secrets') {
        if (!readsSecrets) {
          add(
            'SECRET_REFERENCE',
            `node "${node.id}" ${field}: ${shown} — only an HTTP request node's URL, headers and body read secrets; here it would be sent to a model or a tool, or kept in the run's output`,
            where,
          );
        }
        continue;
      }
      if (ref.scope === 'inputs') {
        if (!parameterNames.has(ref.name)) {
          const known = [...parameterNames].join(', ') || 'none';
          add(
            'UNRESOLVED_REFERENCE',
            `node "${node.id}" ${field}: ${shown} names no parameter (parameters: ${known})`,
            where,
          );
        }
        continue;
      }
      const target = nodesById.get(ref.nodeId);
      if (!target) {
        add(
          'UNRESOLVED_REFERENCE',
          `node "${node.id}" ${field}: ${shown} names node "${ref.nodeId}", which does not exist`,
          where,
        );
      } else if (ref.nodeId === node.id || !isUpstream(ref.nodeId, node.id)) {
        add(
          'UNRESOLVED_REFERENCE',
          `node "${node.id}" ${field}: ${shown} — node "${ref.nodeId}" is not upstream of "${node.id}"; connect it first`,
          where,
        );
      } else if (ref.field === 'error' && !registry.get(target.type)?.outputs.some((p) => p.kind === 'error')) {
        add(
          'UNRESOLVED_REFERENCE',
          `node "${node.id}" ${field}: ${shown} — a ${target.type} node has no error output`,
          where,
        );
      }
    }
  };
  for (const node of nodes) {
    const definition = registry.get(node.type);
    if (!definition || !validConfigs.has(node)) continue;
    if (node.forEach) {
      const where = { nodeId: node.id, field: 'forEach.items' };
      if (!definition.runsForEach) {
        add('FOR_EACH', `node "${node.id}" runs for each item of a list, but a ${node.type} node cannot`, where);
      } else if (node.forEach.items.trim() === '') {
        add('FOR_EACH', `node "${node.id}" runs for each item of a list, and names no list`, where);
      }
      check(node, 'for each item of', where, parseTemplate(node.forEach.items), false, false);
    }
    const fields = templateSegments(node.config, definition.templates, memo);
    for (const { field, segments } of fields) {
      const where = { nodeId: node.id, field: `config.${field}` };
      check(node, field, where, segments, node.forEach !== undefined, definition.readsSecrets === true);
    }
    const readsItem = fields.some(({ segments }) => segments.some((s) => s.kind === 'ref' && s.ref.scope === 'item'));
    if (node.forEach && definition.runsForEach && !readsItem) {
      warn(
        'FOR_EACH',
        `node "${node.id}" runs for each item of a list, but none of its fields reads {{item}}: every item runs the same`,
        { nodeId: node.id, field: 'forEach.items' },
      );
    }
  }
}
