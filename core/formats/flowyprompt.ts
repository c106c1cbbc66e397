import { FlowbenchError } from '../model/errors';
import type { Flow, FlowEdge, FlowNode } from '../model/flow';
import { buildAdjacency, findCycles, topologicalOrder } from '../model/graph';
import { parseTemplate } from '../model/template';
import { flowyPromptHint, isKeptInFlowyPrompt, unknownFlowyPromptFields } from './flowyprompt-fields';
import { unusedFieldWarnings } from './known-fields';
import { asString, isRecord, type ImportProblem, type ImportedFlow } from './shared';

/**
 * FlowyPrompt JSON (seeds 001/002): metadata, multi_input / template / result
 * nodes and data / chain edges. `{var}`, `{node2_result}` / `{node-2_result}`
 * and `{node2_template}` become Flowbench references and come back on export.
 */

const NAME = /^[A-Za-z0-9_-]{1,100}$/;
const SEMVER = /^\d+\.\d+\.\d+$/;
const NODE_TYPES = ['multi_input', 'template', 'result'] as const;
const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

export function isFlowyPrompt(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    isRecord(value.metadata) &&
    Array.isArray(value.nodes) &&
    value.nodes.some((n) => isRecord(n) && NODE_TYPES.includes(n.type as (typeof NODE_TYPES)[number]))
  );
}

const compact = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
const isIsoDate = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** Seed 001's limits: a FlowyPrompt file has at most 50 nodes, 100 edges and 1 MB. */
const MAX_NODES = 50;
const MAX_EDGES = 100;
export const MAX_FLOWYPROMPT_BYTES = 1024 * 1024;

/** A variable as the seed writes it: a name, or `{ name, required }`. */
function variableOf(value: unknown): { name: string; required: boolean } | undefined {
  if (typeof value === 'string') return { name: value, required: true };
  if (isRecord(value) && typeof value.name === 'string')
    return { name: value.name, required: value.required !== false };
  return undefined;
}

/** The seed's own validation rules, each broken rule listed; a cycle is CIRCULAR_DEPENDENCY. */
export function checkFlowyPrompt(doc: Record<string, unknown>): void {
  const problems: string[] = [];
  const metadata = isRecord(doc.metadata) ? doc.metadata : {};
  if (!NAME.test(asString(metadata.name)))
    problems.push('metadata.name: required, letters, digits, _ or - only, at most 100 characters');
  if (!SEMVER.test(asString(metadata.version)))
    problems.push(`metadata.version: must be semver like 1.0.0, got ${JSON.stringify(metadata.version)}`);
  for (const key of ['created', 'updated']) {
    if (metadata[key] !== undefined && !isIsoDate(metadata[key]))
      problems.push(`metadata.${key}: must be an ISO 8601 date`);
  }
  const nodes = Array.isArray(doc.nodes) ? doc.nodes : [];
  if (nodes.length === 0) problems.push('nodes: at least one node is required');
  // Seed 001's limits on a flow file (security: "max 50 nodes, 100 edges per flow").
  if (nodes.length > MAX_NODES) problems.push(`nodes: ${nodes.length} nodes, over the limit of ${MAX_NODES}`);
  if (Array.isArray(doc.edges) && doc.edges.length > MAX_EDGES)
    problems.push(`edges: ${doc.edges.length} edges, over the limit of ${MAX_EDGES}`);
  const ids = new Set<string>();
  nodes.forEach((node, i) => {
    if (!isRecord(node)) return void problems.push(`nodes[${i}]: must be an object`);
    const id = asString(node.id);
    if (!id || id.length > 50) problems.push(`nodes[${i}].id: required, at most 50 characters`);
    else if (ids.has(id)) problems.push(`nodes[${i}].id: "${id}" is used twice`);
    ids.add(id);
    if (!NODE_TYPES.includes(node.type as (typeof NODE_TYPES)[number]))
      problems.push(`nodes[${i}].type: must be multi_input, template or result`);
    const data = isRecord(node.data) ? node.data : {};
    if (!asString(data.label)) problems.push(`nodes[${i}].data.label: required`);
    if (node.type === 'template' && typeof data.template !== 'string')
      problems.push(`nodes[${i}].data.template: required`);
    if ((node.type === 'template' || node.type === 'multi_input') && !Array.isArray(data.variables)) {
      problems.push(`nodes[${i}].data.variables: required list of variable names`);
    }
    if (
      node.position !== undefined &&
      !(isRecord(node.position) && typeof node.position.x === 'number' && typeof node.position.y === 'number')
    ) {
      problems.push(`nodes[${i}].position: x and y must be numbers`);
    }
  });
  const edges = Array.isArray(doc.edges) ? doc.edges : undefined;
  if (!edges) problems.push('edges: required (may be empty)');
  const edgeIds = new Set<string>();
  (edges ?? []).forEach((edge, i) => {
    if (!isRecord(edge)) return void problems.push(`edges[${i}]: must be an object`);
    const id = asString(edge.id);
    if (!id || id.length > 50) problems.push(`edges[${i}].id: required, at most 50 characters`);
    else if (edgeIds.has(id)) problems.push(`edges[${i}].id: "${id}" is used twice`);
    edgeIds.add(id);
    for (const end of ['source', 'target'] as const) {
      if (!ids.has(asString(edge[end]))) problems.push(`edges[${i}].${end}: "${asString(edge[end])}" is not a node`);
    }
    if (edge.source === edge.target) problems.push(`edges[${i}]: source and target are the same node`);
    if (edge.type !== 'data' && edge.type !== 'chain') problems.push(`edges[${i}].type: must be data or chain`);
  });
  if (problems.length > 0) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `the FlowyPrompt flow breaks ${problems.length} rule${problems.length === 1 ? '' : 's'}: ${problems.join('; ')}`,
      {
        problems: problems.map((message) => ({ message })),
      },
    );
  }
  const adjacency = buildAdjacency(
    ids,
    (edges ?? []).filter(isRecord).map((e) => ({ source: asString(e.source), target: asString(e.target) })),
  );
  const cycles = findCycles(adjacency, topologicalOrder(adjacency).blocked);
  if (cycles.length > 0) {
    throw new FlowbenchError(
      'CIRCULAR_DEPENDENCY',
      `the FlowyPrompt flow has a cycle: ${cycles.map((c) => c.join(' → ')).join('; ')}`,
      { cycles },
    );
  }
}

/** Converts a checked FlowyPrompt document to a native flow. */
export function importFlowyPrompt(doc: Record<string, unknown>): ImportedFlow {
  checkFlowyPrompt(doc);
  const metadata = doc.metadata as Record<string, unknown>;
  const rawNodes = doc.nodes as Record<string, unknown>[];
  const rawEdges = doc.edges as Record<string, unknown>[];
  const byCompactId = new Map(rawNodes.map((n) => [compact(asString(n.id)), n]));
  const declared = new Map<string, { name: string; required: boolean }>();
  for (const node of rawNodes.filter((n) => n.type === 'multi_input')) {
    for (const value of (node.data as Record<string, unknown>).variables as unknown[]) {
      const variable = variableOf(value);
      if (variable && !declared.has(variable.name)) declared.set(variable.name, variable);
    }
  }
  const problems: ImportProblem[] = unusedFieldWarnings(unknownFlowyPromptFields(doc), 'FlowyPrompt file', {
    // A node keeps its id: the warning is on the node made of it.
    nodeOf: { list: 'nodes', idAt: (index) => asString(rawNodes[index]?.id) },
    hint: flowyPromptHint,
    isKept: isKeptInFlowyPrompt,
  });
  /** `{x}` no multi_input declares: the seed's string replacement leaves it as written unless x is given. */
  const undeclared = new Map<string, string>();

  const rewrite = (text: string, nodeId: string) =>
    text.replace(VARIABLE, (whole, name: string) => {
      const chained = /^(.*)_(result|template)$/.exec(name);
      const source = chained ? byCompactId.get(compact(chained[1] ?? '')) : undefined;
      if (chained && source) {
        return chained[2] === 'result'
          ? `{{nodes.${asString(source.id)}.output}}`
          : asString(
              (source.data as Record<string, unknown>).selectedTemplateId ??
                (source.data as Record<string, unknown>).label,
            );
      }
      if (!declared.has(name) && !undeclared.has(name)) {
        undeclared.set(name, nodeId);
        problems.push({
          code: 'IMPORT_PROBLEM',
          severity: 'warning',
          nodeId,
          source: `template of "${nodeId}"`,
          message: `{${name}} is not a variable any multi_input declares; it became an optional input that stays "{${name}}" when not given, as the seed's replacement leaves it`,
        });
      }
      return `{{inputs.${name}}}`;
    });

  const nodes = rawNodes.map((raw, index) => {
    const data = raw.data as Record<string, unknown>;
    const position = isRecord(raw.position)
      ? { x: Number(raw.position.x), y: Number(raw.position.y) }
      : { x: index * 260, y: 100 };
    const common = {
      id: asString(raw.id),
      label: asString(data.label),
      position,
      metadata: { flowyprompt: { node: raw } },
    };
    if (raw.type === 'multi_input') return { ...common, type: 'input', config: {} };
    if (raw.type === 'template') {
      const template = rewrite(asString(data.template), asString(raw.id));
      // No text: the node runs a saved template by name, which Flowbench does not have (TEMPLATE_NOT_FOUND).
      const saved = template.trim() === '' ? asString(data.selectedTemplateId) : '';
      return {
        ...common,
        type: 'template',
        config: { template, ...(saved ? { savedTemplate: saved } : {}) },
        metadata: { flowyprompt: { node: raw, converted: template } },
      };
    }
    const sources = rawEdges.filter((e) => e.target === raw.id).map((e) => asString(e.source));
    const values = sources
      .filter((id) => rawNodes.find((n) => n.id === id)?.type !== 'multi_input')
      .map((id) => ({ id: `from_${id}`.replace(/[^A-Za-z0-9_-]/g, '_'), text: `{{nodes.${id}.output}}` }));
    return { ...common, type: 'output', config: { mode: 'return_values', returnValues: values } };
  });

  const name = asString(metadata.name);
  return {
    format: 'flowyprompt',
    problems,
    flow: {
      schemaVersion: 1,
      name,
      description: asString(metadata.description),
      tool: { name, description: asString(metadata.description) },
      parameters: [
        ...[...declared.values()].map((v) => ({ name: v.name, type: 'string' as const, required: v.required })),
        ...[...undeclared.keys()].map((v) => ({
          name: v,
          type: 'string' as const,
          required: false,
          default: `{${v}}`,
          description: 'not declared by the FlowyPrompt file: left as written unless given',
        })),
      ],
      nodes,
      edges: rawEdges.map((e) => ({
        id: asString(e.id),
        source: asString(e.source),
        sourcePort: 'out',
        target: asString(e.target),
        targetPort: 'in',
        metadata: { flowyprompt: { edge: e } },
      })),
      metadata: { flowyprompt: { metadata } },
    },
  };
}

/** Turns Flowbench references back into FlowyPrompt placeholders. */
function unrewrite(template: string): string {
  return parseTemplate(template)
    .map((segment) => {
      if (segment.kind !== 'ref') return segment.kind === 'invalid' ? segment.raw : segment.text;
      const ref = segment.ref;
      if (ref.scope === 'inputs' && ref.path.length === 0) return `{${ref.name}}`;
      if (ref.scope === 'nodes' && ref.field === 'output' && ref.path.length === 0) return `{${ref.nodeId}_result}`;
      throw new FlowbenchError('UNSUPPORTED_FORMAT', `FlowyPrompt cannot express the reference ${segment.raw}`);
    })
    .join('');
}

const sourceOf = (
  item: { metadata?: Record<string, unknown> | undefined },
  key: 'node' | 'edge',
): Record<string, unknown> => {
  const kept = item.metadata?.flowyprompt;
  return isRecord(kept) && isRecord(kept[key]) ? kept[key] : {};
};

/** Writes a flow as FlowyPrompt JSON; flows with model or logic nodes cannot be expressed. */
export function exportFlowyPrompt(flow: Flow): Record<string, unknown> {
  const unsupported = flow.nodes.filter((n) => !['input', 'template', 'output'].includes(n.type));
  if (unsupported.length > 0) {
    throw new FlowbenchError(
      'UNSUPPORTED_FORMAT',
      `FlowyPrompt has only input, template and result nodes; this flow also has ${unsupported.map((n) => `${n.type} "${n.id}"`).join(', ')}`,
    );
  }
  const kept =
    isRecord(flow.metadata.flowyprompt) && isRecord(flow.metadata.flowyprompt.metadata)
      ? flow.metadata.flowyprompt.metadata
      : {};
  const exportNode = (node: FlowNode) => {
    const original = sourceOf(node, 'node');
    const originalData = isRecord(original.data) ? original.data : {};
    const position =
      original.position === undefined && isRecord(node.metadata?.flowyprompt) ? undefined : node.position;
    if (node.type === 'input') {
      return {
        ...original,
        id: node.id,
        type: 'multi_input',
        ...(position ? { position } : {}),
        data: { ...originalData, label: node.label, variables: flow.parameters.map((p) => p.name) },
      };
    }
    if (node.type === 'template') {
      const template = asString(node.config.template);
      const converted = isRecord(node.metadata?.flowyprompt) ? node.metadata.flowyprompt.converted : undefined;
      const text =
        converted === template && typeof originalData.template === 'string'
          ? originalData.template
          : unrewrite(template);
      const used = [...text.matchAll(VARIABLE)].map((m) => m[1] as string);
      return {
        ...original,
        id: node.id,
        type: 'template',
        ...(position ? { position } : {}),
        data: {
          ...originalData,
          label: node.label,
          template: text,
          variables: Array.isArray(originalData.variables) && converted === template ? originalData.variables : used,
          selectedTemplateId: asString(originalData.selectedTemplateId, node.label || node.id),
        },
      };
    }
    return {
      ...original,
      id: node.id,
      type: 'result',
      ...(position ? { position } : {}),
      data: { ...originalData, label: node.label },
    };
  };
  const inputIds = new Set(flow.nodes.filter((n) => n.type === 'input').map((n) => n.id));
  const exportEdge = (edge: FlowEdge) => {
    const original = sourceOf(edge, 'edge');
    return {
      ...original,
      id: edge.id,
      source: edge.source,
      target: edge.target,
      type: asString(original.type, inputIds.has(edge.source) ? 'data' : 'chain'),
    };
  };
  const name = NAME.test(asString(kept.name)) ? asString(kept.name) : flow.tool.name.replace(/\./g, '_').slice(0, 100);
  return {
    metadata: {
      ...kept,
      name,
      version: SEMVER.test(asString(kept.version)) ? kept.version : '1.0.0',
      description: flow.description,
    },
    nodes: flow.nodes.map(exportNode),
    edges: flow.edges.map(exportEdge),
  };
}
