import type { Flow, FlowNode } from '../model/flow';
import type { Parameter } from '../model/parameter';
import { passedOver, type Problem } from '../model/problems';
import type { AgentRepository } from '../store/agent-repository';
import type { Callee, PassedValues } from '../nodes/define-node';
import { nodeRegistry } from '../nodes/registry';
import { secretReferences } from '../model/flow-secrets';

/** What the checks read besides the flow: the agent library, and the flows other flows call. */
export interface LibraryLookups {
  agents: Pick<AgentRepository, 'version'>;
  /** A flow by id, name or tool name; undefined when none (or several) match. */
  findFlow: (ref: string) => { id: string; name: string } | undefined;
  /** The flow nodes of a flow's newest published version (or of its draft when never published). */
  calledFlows: (flowId: string) => readonly string[];
  /** The parameters of a flow's newest published version (what a call runs); undefined when never published. */
  publishedParameters: (flowId: string) => readonly Parameter[] | undefined;
  /** Whether a secret flows read (`{{secrets.name}}`) is set here. */
  hasSecret: (name: string) => boolean;
}

type FlowCallee = Extract<Callee, { kind: 'flow' }>;

/** The flows a node calls (a flow node's flow, a published flow as a tool), as it names them. */
export function calledFlowRefs(node: FlowNode): string[] {
  return nodeRegistry.callees(node).flatMap((c) => (c.kind === 'flow' ? [c.ref] : []));
}

/**
 * Problems only the library can tell (validation proper is pure), about what
 * nodes call (their definitions' `calls`): an agent version that does not
 * exist (error) or that an import created and nobody reviewed (warning, and
 * publishing refuses it); a called flow (a flow node's, or "flowbench" tools
 * of MCP tool and agent nodes) that is not saved, never published, left
 * without an input it requires or given one it does not take (errors: the
 * call would fail), or that calls this flow back, directly or through others.
 */
export function libraryProblems(flow: Flow, lookups: LibraryLookups): Problem[] {
  const problems = flow.nodes.flatMap((node) => [
    ...nodeRegistry.callees(node).flatMap((callee) => {
      if (callee.kind === 'agent') return agentProblems(node.id, callee.versionId, callee.field, lookups);
      if (callee.kind === 'flow') return flowProblems(flow.id, node, callee, lookups);
      return [];
    }),
    ...secretProblems(node, lookups),
  ]);
  return passedOver(problems, new Set(flow.nodes.filter((n) => n.disabled).map((n) => n.id)));
}

/**
 * A secret the node reads that is not set here (a warning: runs refuse to
 * start with SECRET_MISSING until it is), said before a run does.
 */
function secretProblems(node: FlowNode, lookups: LibraryLookups): Problem[] {
  return secretReferences(node, nodeRegistry).flatMap(({ field, name }) =>
    lookups.hasSecret(name)
      ? []
      : [
          {
            code: 'SECRET_NOT_SET' as const,
            severity: 'warning' as const,
            nodeId: node.id,
            field: `config.${field}`,
            message: `node "${node.id}" ${field}: {{secrets.${name}}} is not set here, so runs will not start: set it on the Secrets page or with \`flowbench secrets set ${name}\``,
          },
        ],
  );
}

/** A called flow that is not saved, never published, not given what it takes, or calling back. */
function flowProblems(home: string, node: FlowNode, callee: FlowCallee, lookups: LibraryLookups): Problem[] {
  const { ref, field, values } = callee;
  const at = { nodeId: node.id, field };
  const target = lookups.findFlow(ref);
  if (!target) return [{ code: 'MISSING_FLOW', severity: 'error', ...at, message: `no saved flow is called "${ref}"` }];
  const problems: Problem[] = [];
  const parameters = lookups.publishedParameters(target.id);
  if (!parameters) {
    problems.push({
      code: 'SUBFLOW_NOT_PUBLISHED',
      severity: 'error',
      ...at,
      message: `"${target.name}" has no published version yet: publish it before this node can call it`,
    });
  } else if (values) {
    problems.push(...inputProblems(node, values, target.name, parameters));
  }
  const path = cyclePath(home, target.id, lookups);
  if (path) {
    problems.push({
      code: 'SUBFLOW_CYCLE',
      severity: 'error',
      ...at,
      message: `calling "${target.name}" comes back to this flow (${path.join(' → ')}): the run would never end`,
    });
  }
  return problems;
}

/** An agent version the library lacks (error), or one an import made that nobody reviewed yet (warning). */
function agentProblems(nodeId: string, versionId: string, field: string, lookups: LibraryLookups): Problem[] {
  let version: ReturnType<LibraryLookups['agents']['version']>;
  try {
    version = lookups.agents.version(versionId);
  } catch {
    return [
      {
        code: 'UNKNOWN_AGENT',
        severity: 'error',
        nodeId,
        field,
        message: `agent version "${versionId}" is not in the agent library`,
      },
    ];
  }
  if (version.status !== 'review') return [];
  return [
    {
      code: 'AGENT_NEEDS_REVIEW',
      severity: 'warning',
      nodeId,
      field,
      message: `agent "${version.agentName}" was created by an import with the default provider and model; review it (Agents screen, or \`flowbench agents review "${version.agentName}"\`) before publishing`,
    },
  ];
}

/**
 * The values a node passes a flow (a flow node's inputs, an MCP tool node's arguments) against the called version's parameters: the run
 * refuses a required one left out (MISSING_VARIABLES) and one it does not
 * take, so the editor says so before a run does.
 */
function inputProblems(
  node: FlowNode,
  values: PassedValues,
  name: string,
  parameters: readonly Parameter[],
): Problem[] {
  const list = node.config[values.key];
  const given = Array.isArray(list) ? (list as { name?: unknown }[]) : [];
  const names = given.map((value) => (typeof value.name === 'string' ? value.name : ''));
  const missing = parameters.filter((p) => p.required && p.default === undefined && !names.includes(p.name));
  const problems: Problem[] = [];
  if (missing.length > 0) {
    const list = missing.map((p) => `"${p.name}" (${p.type})`).join(', ');
    problems.push({
      code: 'SUBFLOW_INPUTS',
      severity: 'error',
      nodeId: node.id,
      field: `config.${values.key}`,
      message: `"${name}" requires the input${missing.length > 1 ? 's' : ''} ${list}: add ${missing.length > 1 ? 'them' : 'it'} under ${values.label}`,
    });
  }
  const known = parameters.map((p) => p.name);
  names.forEach((input, i) => {
    if (input === '' || known.includes(input)) return;
    problems.push({
      code: 'SUBFLOW_INPUTS',
      severity: 'error',
      nodeId: node.id,
      field: `config.${values.key}.${i}.name`,
      message: `"${name}" takes no input "${input}" (it takes ${known.length > 0 ? known.map((k) => `"${k}"`).join(', ') : 'none'})`,
    });
  });
  return problems;
}

/** The chain of flow names from `start` back to `home`, if following flow nodes gets there. */
function cyclePath(home: string, start: string, lookups: LibraryLookups): string[] | undefined {
  const seen = new Set<string>();
  const walk = (id: string, trail: string[]): string[] | undefined => {
    if (id === home) return trail;
    if (seen.has(id)) return undefined;
    seen.add(id);
    for (const ref of lookups.calledFlows(id)) {
      const next = lookups.findFlow(ref);
      if (!next) continue;
      const found = walk(next.id, [...trail, next.name]);
      if (found) return found;
    }
    return undefined;
  };
  const first = lookups.findFlow(start);
  return walk(start, [first?.name ?? start]);
}
