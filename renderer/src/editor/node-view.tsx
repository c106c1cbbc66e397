import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { createContext, memo, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useAppStore } from '../store/app-store';
import { streamTail } from '../store/run-slice';
import type { FlowNode } from '../../../core/model/flow';
import type { StepStatus } from '../../../core/model/run';
import type { PortSpec } from '../../../core/model/node-catalogue';
import { nodeRegistry } from '../../../core/nodes/registry';
import { NODE_ICONS, STATUS_ICONS } from './node-icons';
import { MemoNoteView } from './note-view';
import { portTop } from './port-places';
import type { NodeDetail } from './viewport';

export interface FlowNodeData extends Record<string, unknown> {
  node: FlowNode;
  /** The node's errors (what stops a run or a publish) and its warnings, as the Problems tab lists them. */
  problemCount: number;
  warningCount: number;
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
export function nodeClassName(node: FlowNode, problemCount: number, warningCount: number): string {
  const definition = nodeRegistry.get(node.type);
  const category = CATEGORY_CLASS[definition?.category ?? ''];
  let className = category ? `fb-node ${category}` : 'fb-node';
  // Port labels sit inside the card's right edge: its text keeps clear of them.
  if ((definition?.outputs.length ?? 0) > 1) className += ' has-port-labels';
  if (problemCount > 0) className += ' has-problems';
  else if (warningCount > 0) className += ' has-warnings';
  if (node.disabled) className += ' is-deactivated';
  else if (node.pin) className += ' is-pinned';
  return className;
}

/** How much node views show at the canvas's zoom (see detailAt). */
export const NodeDetailContext = createContext<NodeDetail>('full');

/** Several ports go in rows at the top (portTop, which far-out cards go by too); a lone port keeps React Flow's default, the middle. */
function portStyle(index: number, count: number): { top: string } | undefined {
  return count > 1 ? { top: `${portTop(index, count, 0)}px` } : undefined;
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
  const { node, problemCount, warningCount, parameters } = data;
  // A run's status comes from the store, not React Flow's data, and only while a run is shown:
  // a flow opened with no run has no card listening to the store (see RunStatus).
  const isRunShown = useContext(RunShownContext);
  const definition = nodeRegistry.get(node.type);
  const detail = useContext(NodeDetailContext);
  if (detail === 'box') {
    // Far out: the box (its colour says the category) and the label, no ports: FarEdges draws the
    // edges without them, and thousands of cards draw (and drag) far faster with a third of their elements.
    return (
      <>
        {isRunShown && <RunStatus nodeId={node.id} />}
        <div className="fb-node-compact fb-node-box" title={node.label || node.id}>
          {node.label || node.id}
        </div>
      </>
    );
  }
  const isCompact = detail !== 'full';
  const inputs = handles(definition?.inputs ?? [], 'target', isCompact);
  const outputs = handles(definition?.outputs ?? [], 'source', isCompact);
  const summary = definition
    ? definition.showsParameters
      ? parameters.length > 0
        ? parameters.join(', ')
        : 'no parameters yet'
      : safeSummary(definition.summary, node.config)
    : `unknown type ${node.type}`;
  const Icon = definition ? NODE_ICONS[definition.icon] : undefined;
  if (detail === 'label') {
    // Zoomed out, where the card's small print cannot be read: the same things in large type.
    return (
      <>
        {inputs}
        {isRunShown && <RunStatus nodeId={node.id} />}
        <div className="fb-node-compact">
          {Icon && <Icon size={24} strokeWidth={2.2} className="fb-node-compact-icon" />}
          {/* A label too long for the large type is cut short: hovering shows all of it. */}
          <span className="fb-node-compact-label" title={node.label || node.id}>
            {node.label || node.id}
          </span>
          <ProblemCounts errors={problemCount} warnings={warningCount} />
        </div>
        <div className="fb-node-compact-summary">{summary}</div>
        {outputs}
      </>
    );
  }
  return (
    <>
      {inputs}
      <div className="fb-node-head">
        <span className="fb-node-icon" aria-hidden="true">
          {Icon && <Icon size={16} strokeWidth={2.2} />}
        </span>
        <div className="fb-node-titles">
          <div className="fb-node-label">{node.label || node.id}</div>
          <div className="fb-node-type">
            {/* First: the card is narrow, and this is what the struck-through label is about. */}
            {node.disabled ? (
              <span className="fb-node-deactivated" title="Runs pass over it, handing on what came into it (D)">
                {'Deactivated · '}
              </span>
            ) : node.pin ? (
              <span
                className="fb-node-deactivated"
                title="Runs started here take its pinned output instead of running it"
              >
                {'Pinned · '}
              </span>
            ) : null}
            {definition?.label ?? node.type}
            {node.forEach && (
              <span className="fb-node-for-each" title={`Runs once for each item of ${node.forEach.items}`}>
                {' · for each'}
              </span>
            )}
            {node.label ? ` · ${node.id}` : ''}
          </div>
        </div>
        {isRunShown && <RunStatus nodeId={node.id} withBadge />}
        <ProblemCounts errors={problemCount} warnings={warningCount} />
      </div>
      <div className="fb-node-summary">{summary}</div>
      {isRunShown && <StepLine nodeId={node.id} />}
      {isRunShown && <StepOutput nodeId={node.id} />}
      {outputs}
    </>
  );
}

/** A card's error and warning counts (red, amber), as the Problems tab lists them; nothing when there are none. */
function ProblemCounts({ errors, warnings }: { errors: number; warnings: number }) {
  return (
    <>
      {errors > 0 && (
        <span className="fb-problems" title={`${errors} error(s): see Problems`} aria-label={`${errors} error(s)`}>
          {errors}
        </span>
      )}
      {warnings > 0 && (
        <span
          className="fb-warnings"
          title={`${warnings} warning(s): see Problems`}
          aria-label={`${warnings} warning(s)`}
        >
          {warnings}
        </span>
      )}
    </>
  );
}

/**
 * Under a card during and after a run: the elapsed time while it runs, then
 * its duration, tokens and cost, or its error code. Subscribes to its own
 * line, so a step finishing elsewhere does not redraw this card.
 */
function StepLine({ nodeId }: { nodeId: string }) {
  const status = useAppStore((s) => s.nodeStatus[nodeId]);
  const line = useAppStore((s) => s.stepLines[nodeId]);
  const started = useAppStore((s) => s.stepStarted[nodeId]);
  if (!status) return null;
  if (status === 'running' && started !== undefined) return <Elapsed since={started} detail={line} />;
  return line ? <div className={`fb-step-line fb-step-line-${status}`}>{line}</div> : null;
}

/**
 * A line or two of what the step gave, under the card (as Rivet shows each
 * node's output), and the model's text as it streams in while it runs: what
 * each node did is read off the canvas, the step details hold the whole.
 */
function StepOutput({ nodeId }: { nodeId: string }) {
  const output = useAppStore((s) => s.stepOutputs[nodeId]);
  const streamed = useAppStore((s) =>
    s.nodeStatus[nodeId] === 'running' && s.tokens[nodeId] ? streamTail(s.tokens[nodeId]) : undefined,
  );
  const text = output ?? streamed;
  if (!text) return null;
  return (
    <div className={output ? 'fb-step-output' : 'fb-step-output fb-step-output-streaming'} title={text}>
      {text}
    </div>
  );
}

/** Seconds since a step started, ticking while it runs. */
function Elapsed({ since, detail }: { since: number; detail?: string | undefined }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="fb-step-line fb-step-line-running">
      {((now - since) / 1000).toFixed(1)} s{detail ? ` · ${detail}` : ''}
    </div>
  );
}

/** What a status is called on a card: a step the run has not reached yet is queued. */
const STATUS_WORDS: Record<StepStatus, string> = {
  pending: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
};

/** True while a run is shown on the canvas: only then do cards and edges listen for statuses. */
export const RunShownContext = createContext(false);

/**
 * A node's status in the run shown, from the store, written on its React Flow
 * wrapper as `data-status` (the wrapper is the card, see nodeClassName; React
 * Flow manages its class, not this attribute), and shown as a badge in the
 * full card.
 */
function RunStatus({ nodeId, withBadge = false }: { nodeId: string; withBadge?: boolean }) {
  const status = useAppStore((s) => s.nodeStatus[nodeId]);
  const ref = useRef<HTMLSpanElement>(null);
  const wrapper = useRef<Element | null>(null);
  useLayoutEffect(() => {
    wrapper.current = ref.current?.closest('.react-flow__node') ?? wrapper.current;
    if (status) wrapper.current?.setAttribute('data-status', status);
    else wrapper.current?.removeAttribute('data-status');
  }, [status]);
  // Gone with the run (or the level of detail changed): the card's wrapper forgets the status.
  useLayoutEffect(() => () => wrapper.current?.removeAttribute('data-status'), []);
  return withBadge && status ? <StatusBadge status={status} anchor={ref} /> : <span ref={ref} hidden />;
}

/** The step's status as an icon: the title keeps its room. The word is its tooltip and what a screen reader says. */
function StatusBadge({ status, anchor }: { status: StepStatus; anchor: React.Ref<HTMLSpanElement> }) {
  const Icon = STATUS_ICONS[status];
  return (
    <span
      ref={anchor}
      className={`fb-status fb-status-${status}`}
      title={STATUS_WORDS[status]}
      role="img"
      aria-label={STATUS_WORDS[status]}
    >
      <Icon size={16} strokeWidth={2.4} />
    </span>
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
export const nodeTypes = {
  ...Object.fromEntries(nodeRegistry.types().map((type) => [rfType(type), MemoNodeView])),
  note: MemoNoteView,
};

/** React Flow styles its own `input` and `output` types; ours get a prefix. */
export function rfType(type: string): string {
  return `fb-${type}`;
}
