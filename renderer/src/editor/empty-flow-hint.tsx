import { useAppStore } from '../store/app-store';
import { useAddNode } from './palette';

/**
 * Over a flow with no nodes yet: where to start, as n8n's "Add first step"
 * and Langflow's empty canvas say it, instead of a blank grid. It goes with
 * the first node, and comes back if the last one is deleted or undone.
 */
export function EmptyFlowHint() {
  // A flow with only notes is being planned: the hint would sit over them.
  const isEmpty = useAppStore(
    (s) => s.runSnapshot === undefined && s.flow?.nodes.length === 0 && s.flow.notes.length === 0,
  );
  const add = useAddNode();
  if (!isEmpty) return null;
  return (
    <section className="empty-flow-hint" aria-label="Empty flow">
      <p>
        <strong>This flow has no nodes yet.</strong>
      </p>
      <p>Start with an Input node: its parameters are what the flow takes, in the Run tab and as an MCP tool.</p>
      <button className="primary" onClick={() => add('input')}>
        Add an Input node
      </button>
      <p className="muted">Or add any node from the list on the left: click it, or drag it onto the canvas.</p>
    </section>
  );
}
