import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';
import type { FlowNode } from '../../../core/model/flow';
import type { StepStatus } from '../../../core/model/run';
import type { PortSpec } from '../../../core/model/node-catalogue';
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

/**
 * The classes of a node's React Flow wrapper. The wrapper is the node's box
 * (React Flow adds `selected`), so a view renders no box of its own: one
 * element less per node, which a 5,000-node flow notices when it opens.
 */
export function nodeClassName(node: FlowNode, problemCount: number, status: StepStatus | undefined): string {
  const category = CATEGORY_CLASS[nodeRegistry.get(node.type)?.category ?? ''];
  let className = category ? `fb-node ${category}` : 'fb-node';
  if (problemCount > 0) className += ' has-problems';
  if (status) className += ` status-${status}`;
  return className;
}

/** True while the canvas is zoomed out below COMPACT_ZOOM: node views then show their label only. */
export const CompactNodesContext = createContext(false);

/** Ports spread over the node's height; a lone port keeps React Flow's default, the middle. */
function portStyle(index: number, count: number): { top: string } | undefined {
  return count > 1 ? { top: `${((index + 1) / (count + 1)) * 100}%` } : undefined;
}

/**
 * A node's handles on one side. Zoomed out they carry no hover titles or port
 * labels: nothing that small can be read, and a big flow draws faster without.
 */
function handles(ports: readonly PortSpec[], type: 'target' | 'source', isCompact: boolean) {
  const isSource = type === 'source';
  return ports.map((port, i) => (
    <Handle
      key={port.id}
      id={port.id}
      type={type}
      position={isSource ? Position.Right : Position.Left}
      className={isSource ? `port-${port.kind}` : undefined}
      style={portStyle(i, ports.length)}
      title={isCompact ? undefined : port.label}
    >
      {isSource && !isCompact && ports.length > 1 && <span className="port-label">{port.label}</span>}
    </Handle>
  ));
}

/** One view for every node type: what matters at a glance, ports as handles. */
function NodeView({ data }: NodeProps<FlowRfNode>) {
  const { node, problemCount, status, parameters } = data;
  const definition = nodeRegistry.get(node.type);
  const isCompact = useContext(CompactNodesContext);
  const inputs = handles(definition?.inputs ?? [], 'target', isCompact);
  const outputs = handles(definition?.outputs ?? [], 'source', isCompact);
  if (isCompact) {
    // What a zoomed-out canvas can show: the box (its colour says the category) and the label.
    return (
      <>
        {inputs}
        <div className="fb-node-compact">{node.label || node.id}</div>
        {outputs}
      </>
    );
  }
  const summary = definition
    ? definition.showsParameters
      ? parameters.length > 0
        ? parameters.join(', ')
        : 'no parameters yet'
      : safeSummary(definition.summary, node.config)
    : `unknown type ${node.type}`;
  return (
    <>
      {inputs}
      <div className="fb-node-head">
        {problemCount > 0 && (
          <span className="fb-problems" title={`${problemCount} problem(s)`}>
            {problemCount}
          </span>
        )}
        {status && <span className={`fb-status fb-status-${status}`}>{status}</span>}
        {`${definition?.label ?? node.type} · ${node.id}`}
      </div>
      <div className="fb-node-label">{node.label || node.id}</div>
      <div className="fb-node-summary">{summary}</div>
      {outputs}
    </>
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
