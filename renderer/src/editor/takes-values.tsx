import { useEffect, useState } from 'react';
import type { Flow, FlowNode } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { toolLabel } from '../../../core/model/tools';
import { toFlowbenchError } from '../../../core/model/errors';
import { api } from '../api/client';
import { useAppStore } from '../store/app-store';
import { serverTools } from './suggestions';

/** A value a called flow or tool takes: its name, and whether a call must give it. */
interface Taken {
  name: string;
  required: boolean;
}

/** The parameters of the newest published version of the flow `ref` names (id, name or tool name); none when unknown or never published. */
async function publishedParameters(ref: string): Promise<Taken[]> {
  const called = (await api.flows.list({})).find((f) => f.id === ref || f.toolName === ref || f.name === ref);
  if (!called?.publishedVersion) return [];
  const { parameters } = await api.flows.version({ id: called.id, version: called.publishedVersion });
  return parameters.map((p) => ({ name: p.name, required: p.required && p.default === undefined }));
}

/** The arguments of the tool `tool` of `server` (any connected server when empty), from its input schema; none when not found. */
async function toolArguments(server: string, tool: string): Promise<Taken[]> {
  const found = (await serverTools(server)).find((t) => t.name === tool);
  if (!found) return [];
  const schema = found.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.keys(schema.properties ?? {}).map((name) => ({ name, required: required.has(name) }));
}

/**
 * What a node calls takes that the node does not give yet, added in one
 * click (as n8n's Execute Workflow lists a sub-workflow's inputs, and its MCP
 * Client a tool's parameters), each from this flow's parameter of the same
 * name when there is one, else empty. Without it, a person read the names
 * off a problem or the tool's schema and typed each.
 */
function TakesValues({
  node,
  flow,
  listKey,
  subject,
  label,
  load,
}: {
  node: FlowNode;
  flow: Flow;
  /** The node's list of named values: `inputs`, `arguments`. */
  listKey: string;
  /** What is called, as the node names it (empty: nothing chosen yet); the list is read again when it changes. */
  subject: string;
  label: string;
  load: () => Promise<Taken[]>;
}) {
  const [taken, setTaken] = useState<Taken[]>([]);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    let isCurrent = true;
    setTaken([]);
    setProblem(undefined);
    if (subject)
      void load().then(
        (found) => isCurrent && setTaken(found),
        // Said, not left blank: a server that does not start is why no arguments are offered.
        (error: unknown) => isCurrent && setProblem(toFlowbenchError(error).message),
      );
    return () => {
      isCurrent = false;
    };
    // `load` is made anew at each render; what it reads is `subject`.
  }, [subject]);
  const given = Array.isArray(node.config[listKey]) ? (node.config[listKey] as { name: string; value: string }[]) : [];
  const missing = taken.filter((t) => !given.some((value) => value.name === t.name));
  if (problem)
    return (
      <p className="muted">
        Could not read what {subject} takes: {problem}
      </p>
    );
  if (missing.length === 0) return null;
  const add = () => {
    const own = new Set(flow.parameters.map((p) => p.name));
    const added = missing.map((t) => ({ name: t.name, value: own.has(t.name) ? `{{inputs.${t.name}}}` : '' }));
    // Rows added before the names were known (Add argument, still unnamed) make way for the named ones.
    const named = given.filter((value) => value.name.trim() !== '' || value.value.trim() !== '');
    useAppStore.getState().updateNode(node.id, { config: { ...node.config, [listKey]: [...named, ...added] } });
  };
  return (
    <div className="row-actions called-inputs" role="group" aria-label={label}>
      <span className="muted">
        {subject} takes {missing.map((t) => `${t.name}${t.required ? ' (required)' : ''}`).join(', ')}
      </span>
      <button className="small" onClick={add}>
        Add {missing.length === 1 ? 'it' : 'them'}
      </button>
    </div>
  );
}

/**
 * What the node calls, where it passes it named values (a flow node's inputs,
 * an MCP tool node's arguments): those the callee takes that the node does
 * not give yet. Nothing for nodes that pass none.
 */
export function CalleeValues({ node, flow }: { node: FlowNode; flow: Flow }) {
  const callee = nodeRegistry.callees(node).find((c) => c.kind !== 'agent' && c.values !== undefined);
  if (!callee || callee.kind === 'agent' || !callee.values) return null;
  // As the node's card names it: the flow, or the tool with its server.
  const subject = callee.kind === 'flow' ? callee.ref : toolLabel(callee);
  return (
    <TakesValues
      node={node}
      flow={flow}
      listKey={callee.values.key}
      subject={subject}
      label={`${callee.values.label} ${callee.kind === 'flow' ? 'the called flow' : 'the tool'} takes`}
      load={() =>
        callee.kind === 'flow' ? publishedParameters(callee.ref) : toolArguments(callee.server, callee.tool)
      }
    />
  );
}
