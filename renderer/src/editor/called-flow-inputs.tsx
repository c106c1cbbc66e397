import { useEffect, useState } from 'react';
import type { Flow, FlowNode } from '../../../core/model/flow';
import type { Parameter } from '../../../core/model/parameter';
import { api } from '../api/client';
import { useAppStore } from '../store/app-store';

/** The parameters of the newest published version of the flow `ref` names (id, name or tool name); none when unknown or never published. */
async function publishedParameters(ref: string): Promise<Parameter[]> {
  const called = (await api.flows.list({})).find((f) => f.id === ref || f.toolName === ref || f.name === ref);
  if (!called?.publishedVersion) return [];
  return (await api.flows.version({ id: called.id, version: called.publishedVersion })).parameters;
}

/**
 * A flow node's called flow: the inputs its published version takes that the
 * node does not give yet, added in one click (as n8n's Execute Workflow lists
 * the sub-workflow's inputs), each from this flow's parameter of the same
 * name when there is one. Without it, a person read the names off the
 * SUBFLOW_INPUTS problem and typed each.
 */
export function CalledFlowInputs({ node, flow }: { node: FlowNode; flow: Flow }) {
  const ref = typeof node.config.flow === 'string' ? node.config.flow.trim() : '';
  const [parameters, setParameters] = useState<Parameter[]>([]);
  useEffect(() => {
    let isCurrent = true;
    setParameters([]);
    if (ref)
      void publishedParameters(ref).then(
        (found) => isCurrent && setParameters(found),
        () => undefined,
      );
    return () => {
      isCurrent = false;
    };
  }, [ref]);
  const inputs = Array.isArray(node.config.inputs) ? (node.config.inputs as { name: string; value: string }[]) : [];
  const missing = parameters.filter((p) => !inputs.some((input) => input.name === p.name));
  if (missing.length === 0) return null;
  const add = () => {
    const own = new Set(flow.parameters.map((p) => p.name));
    const added = missing.map((p) => ({ name: p.name, value: own.has(p.name) ? `{{inputs.${p.name}}}` : '' }));
    useAppStore.getState().updateNode(node.id, { config: { ...node.config, inputs: [...inputs, ...added] } });
  };
  return (
    <div className="row-actions called-inputs" role="group" aria-label="Inputs the called flow takes">
      <span className="muted">
        {ref} takes{' '}
        {missing.map((p) => `${p.name}${p.required && p.default === undefined ? ' (required)' : ''}`).join(', ')}
      </span>
      <button className="small" onClick={add}>
        Add {missing.length === 1 ? 'it' : 'them'}
      </button>
    </div>
  );
}
