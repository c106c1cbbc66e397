import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNode } from '../../../core/model/flow';
import type { StepStatus } from '../../../core/model/run';
import { nodeRegistry } from '../../../core/nodes/registry';

export interface FlowNodeData extends Record<string, unknown> {
  node: FlowNode;
  problemCount: number;
  status: StepStatus | undefined;
  /** Parameter names, shown on input nodes. */
  parameters: string[];
}

export type FlowRfNode = Node<FlowNodeData>;

const CATEGORY_CLASS: Record<string, string> = { io: 'cat-io', text: 'cat-text', ai: 'cat-ai', logic: 'cat-logic' };

function portTop(index: number, count: number): string {
  return `${((index + 1) / (count + 1)) * 100}%`;
}

/** One view for every node type: what matters at a glance, ports as handles. */
function NodeView({ data, selected }: NodeProps<FlowRfNode>) {
  const { node, problemCount, status, parameters } = data;
  const definition = nodeRegistry.get(node.type);
  const summary = definition
    ? node.type === 'input'
      ? parameters.length > 0
        ? parameters.join(', ')
        : 'no parameters yet'
      : safeSummary(definition.summary, node.config)
    : `unknown type ${node.type}`;
  const classes = [
    'fb-node',
    CATEGORY_CLASS[definition?.category ?? ''] ?? '',
    selected ? 'selected' : '',
    problemCount > 0 ? 'has-problems' : '',
    status ? `status-${status}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} data-testid={`node-${node.id}`}>
      {definition?.inputs.map((port, i) => (
        <Handle
          key={port.id}
          id={port.id}
          type="target"
          position={Position.Left}
          style={{ top: portTop(i, definition.inputs.length) }}
          title={port.label}
        />
      ))}
      <div className="fb-node-head">
        {definition?.label ?? node.type} · {node.id}
        {status && <span className={`fb-status fb-status-${status}`}>{status}</span>}
        {problemCount > 0 && (
          <span className="fb-problems" title={`${problemCount} problem(s)`}>
            {problemCount}
          </span>
        )}
      </div>
      <div className="fb-node-label">{node.label || node.id}</div>
      <div className="fb-node-summary">{summary}</div>
      {definition?.outputs.map((port, i) => (
        <Handle
          key={port.id}
          id={port.id}
          type="source"
          position={Position.Right}
          className={`port-${port.kind}`}
          style={{ top: portTop(i, definition.outputs.length) }}
          title={port.label}
        >
          {definition.outputs.length > 1 && <span className="port-label">{port.label}</span>}
        </Handle>
      ))}
    </div>
  );
}

/** A config that does not parse (a draft mid-edit) still shows something. */
function safeSummary(summary: (config: Record<string, unknown>) => string, config: Record<string, unknown>): string {
  try {
    return summary(config);
  } catch {
    return '';
  }
}

const MemoNodeView = memo(NodeView);

/** Built once at module level: React Flow warns when nodeTypes changes between renders. */
export const nodeTypes = Object.fromEntries(nodeRegistry.types().map((type) => [rfType(type), MemoNodeView]));

/** React Flow styles its own `input` and `output` types; ours get a prefix. */
export function rfType(type: string): string {
  return `fb-${type}`;
}
