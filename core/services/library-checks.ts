import type { Flow, FlowNode } from '../model/flow';
import type { Parameter } from '../model/parameter';
import { FLOWBENCH_SERVER } from '../model/tools';
import type { Problem } from '../model/problems';
import type { AgentRepository } from '../store/agent-repository';

/** What the checks read besides the flow: the agent library, and the flows other flows call. */
export interface LibraryLookups {
  agents: Pick<AgentRepository, 'version'>;
  /** A flow by id, name or tool name; undefined when none (or several) match. */
  findFlow: (ref: string) => { id: string; name: string } | undefined;
  /** The flow nodes of a flow's newest published version (or of its draft when never published). */
  calledFlows: (flowId: string) => readonly string[];
  /** The parameters of a flow's newest published version (what a call runs); undefined when never published. */
  publishedParameters: (flowId: string) => readonly Parameter[] | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The flows a node calls: a flow node's flow, an agent's published flows used as tools. */
export function calledFlowRefs(node: FlowNode): { ref: string; field: string }[] {
  if (node.type === 'flow')
    return text(node.config.flow) ? [{ ref: text(node.config.flow), field: 'config.flow' }] : [];
  if (node.type !== 'agent' || !Array.isArray(node.config.tools)) return [];
  return (node.config.tools as { server?: unknown; tool?: unknown }[]).flatMap((t, i) =>
    t.server === FLOWBENCH_SERVER && text(t.tool) ? [{ ref: text(t.tool), field: `config.tools.${i}.tool` }] : [],
  );
}

/**
 * Problems only the library can tell (validation proper is pure): an agent
 * node naming an agent version that does not exist (error) or that an import
 * created and nobody reviewed (warning, and publishing refuses it), a flow
 * node naming no saved flow (error), one naming a flow never published, or
 * leaving out an input it requires, or giving one it does not take (errors:
 * the call would fail), and flow nodes that would call a flow back, directly
 * or through others (error).
 */
export function libraryProblems(flow: Flow, lookups: LibraryLookups): Problem[] {
  const problems: Problem[] = [];
  for (const node of flow.nodes) {
    const versionId = node.type === 'agent' ? text(node.config.agentVersionId) : '';
    if (versionId) {
      try {
        const version = lookups.agents.version(versionId);
        if (version.status === 'review') {
          problems.push({
            code: 'AGENT_NEEDS_REVIEW',
            severity: 'warning',
            nodeId: node.id,
            field: 'config.agentVersionId',
            message: `agent "${version.agentName}" was created by an import with the default provider and model; review it (Agents screen, or \`flowbench agents review "${version.agentName}"\`) before publishing`,
          });
        }
      } catch {
        problems.push({
          code: 'UNKNOWN_AGENT',
          severity: 'error',
          nodeId: node.id,
          field: 'config.agentVersionId',
          message: `agent version "${versionId}" is not in the agent library`,
        });
      }
    }
    for (const { ref: called, field } of calledFlowRefs(node)) {
      const target = lookups.findFlow(called);
      if (!target) {
        problems.push({
          code: 'MISSING_FLOW',
          severity: 'error',
          nodeId: node.id,
          field,
          message: `no saved flow is called "${called}"`,
        });
        continue;
      }
      const parameters = lookups.publishedParameters(target.id);
      if (!parameters) {
        problems.push({
          code: 'SUBFLOW_NOT_PUBLISHED',
          severity: 'error',
          nodeId: node.id,
          field,
          message: `"${target.name}" has no published version yet: publish it before this node can call it`,
        });
      } else if (node.type === 'flow') {
        problems.push(...inputProblems(node, target.name, parameters));
      }
      const path = cyclePath(flow.id, target.id, lookups);
      if (path) {
        problems.push({
          code: 'SUBFLOW_CYCLE',
          severity: 'error',
          nodeId: node.id,
          field,
          message: `calling "${target.name}" comes back to this flow (${path.join(' → ')}): the run would never end`,
        });
      }
    }
  }
  return problems;
}

/**
 * A flow node's inputs against the called version's parameters: the run
 * refuses a required one left out (MISSING_VARIABLES) and one it does not
 * take, so the editor says so before a run does.
 */
function inputProblems(node: FlowNode, name: string, parameters: readonly Parameter[]): Problem[] {
  const given = Array.isArray(node.config.inputs) ? (node.config.inputs as { name?: unknown }[]) : [];
  const names = given.map((input) => text(input.name));
  const missing = parameters.filter((p) => p.required && p.default === undefined && !names.includes(p.name));
  const problems: Problem[] = [];
  if (missing.length > 0) {
    const list = missing.map((p) => `"${p.name}" (${p.type})`).join(', ');
    problems.push({
      code: 'SUBFLOW_INPUTS',
      severity: 'error',
      nodeId: node.id,
      field: 'config.inputs',
      message: `"${name}" requires the input${missing.length > 1 ? 's' : ''} ${list}: add ${missing.length > 1 ? 'them' : 'it'} under Inputs`,
    });
  }
  const known = parameters.map((p) => p.name);
  names.forEach((input, i) => {
    if (input === '' || known.includes(input)) return;
    problems.push({
      code: 'SUBFLOW_INPUTS',
      severity: 'error',
      nodeId: node.id,
      field: `config.inputs.${i}.name`,
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
