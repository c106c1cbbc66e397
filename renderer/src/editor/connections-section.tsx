import { useContext, useMemo, useState } from 'react';
import type { Flow, FlowEdge, FlowNode } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { ReadOnlyContext } from './read-only-context';
import { useShowNode } from './use-show-node';

/** How many nodes a search for a node to connect to offers at once. */
const MATCHES_SHOWN = 8;

/**
 * The selected node's edges in words: each goes to the node at its other end
 * or is removed with a button, and a new one is added by naming the node to
 * connect to. So every edge can be read and changed from the keyboard, and at
 * any zoom, also far out where the canvas draws all edges as one picture
 * (far-edges.tsx) and cards carry no ports.
 */
export function ConnectionsSection({ flow, node }: { flow: Flow; node: FlowNode }) {
  const goTo = useShowNode();
  // Over a past run or a version: the edges to read and follow, none to remove or add.
  const isReadOnly = useContext(ReadOnlyContext);
  const byId = useMemo(() => new Map(flow.nodes.map((n) => [n.id, n])), [flow.nodes]);
  const incoming = flow.edges.filter((e) => e.target === node.id);
  const outgoing = flow.edges.filter((e) => e.source === node.id);
  const name = (id: string) => byId.get(id)?.label || id;
  const remove = (edge: FlowEdge, words: string) =>
    !isReadOnly && (
      <button
        className="small"
        aria-label={`Remove the edge ${words}`}
        title="Remove this edge"
        onClick={() => useAppStore.getState().removeEdges([edge.id])}
      >
        ×
      </button>
    );

  return (
    <section className="node-connections" aria-label="Connections">
      <h3>Connections</h3>
      {incoming.length + outgoing.length === 0 && <p className="muted">Not connected yet.</p>}
      <ul>
        {incoming.map((edge) => (
          <li key={edge.id}>
            <span className="muted">from</span>{' '}
            <button className="link" title="Select it and show it" onClick={() => goTo(edge.source)}>
              {name(edge.source)}
            </button>{' '}
            <span className="muted">{portName(byId.get(edge.source), edge.sourcePort)}</span>
            <LoopNote edge={edge} /> {remove(edge, `from ${name(edge.source)}`)}
          </li>
        ))}
        {outgoing.map((edge) => (
          <li key={edge.id}>
            <span className="muted">{portName(node, edge.sourcePort)} to</span>{' '}
            <button className="link" title="Select it and show it" onClick={() => goTo(edge.target)}>
              {name(edge.target)}
            </button>
            <LoopNote edge={edge} /> {remove(edge, `to ${name(edge.target)}`)}
          </li>
        ))}
      </ul>
      {!isReadOnly && <ConnectTo flow={flow} node={node} />}
    </section>
  );
}

/** A loop edge says so; a click selects the edge, whose settings (its limit) the inspector then shows. */
function LoopNote({ edge }: { edge: FlowEdge }) {
  if (!edge.loop) return null;
  return (
    <>
      {' '}
      <button
        className="link"
        title="Select this loop to change its limit"
        onClick={() => useAppStore.getState().setSelection([], [edge.id])}
      >
        loop, {edge.loop.maxIterations} passes at most
      </button>
    </>
  );
}

/** A port's label as the card shows it ("answer", "on error", "true"). */
function portName(node: FlowNode | undefined, portId: string): string {
  const port = node && nodeRegistry.get(node.type)?.outputs.find((p) => p.id === portId);
  return port?.label ?? portId;
}

const inputPortOf = (node: FlowNode) => nodeRegistry.get(node.type)?.inputs[0]?.id ?? 'in';

/** Adds an edge from one of the node's output ports to a node found by its label or id. */
function ConnectTo({ flow, node }: { flow: Flow; node: FlowNode }) {
  const outputs = nodeRegistry.get(node.type)?.outputs ?? [];
  const [port, setPort] = useState(outputs[0]?.id ?? 'out');
  const [query, setQuery] = useState('');
  const matches = useMemo(() => {
    const wanted = query.trim().toLowerCase();
    if (!wanted) return [];
    const found: FlowNode[] = [];
    for (const candidate of flow.nodes) {
      if (candidate.id === node.id || !nodeRegistry.get(candidate.type)?.inputs.length) continue;
      if (!candidate.label.toLowerCase().includes(wanted) && !candidate.id.toLowerCase().includes(wanted)) continue;
      found.push(candidate);
      if (found.length === MATCHES_SHOWN) break;
    }
    return found;
  }, [flow.nodes, node.id, query]);
  if (outputs.length === 0) return null;
  const chosenPort = outputs.some((p) => p.id === port) ? port : (outputs[0]?.id ?? 'out');

  return (
    <div className="connect-to" role="group" aria-label="Connect to a node">
      {outputs.length > 1 && (
        <select aria-label="From port" value={chosenPort} onChange={(e) => setPort(e.target.value)}>
          {outputs.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      )}
      <input
        type="search"
        aria-label="Connect to"
        placeholder="Connect to… (a node's label or id)"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {query.trim() !== '' && matches.length === 0 && <p className="muted">No node to connect to matches.</p>}
      {matches.length > 0 && (
        <ul aria-label="Nodes to connect to">
          {matches.map((target) => (
            <li key={target.id}>
              <button
                className="link"
                onClick={() => {
                  useAppStore.getState().connect(node.id, chosenPort, target.id, inputPortOf(target));
                  setQuery('');
                }}
              >
                {target.label || target.id} <code>{target.id}</code>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
