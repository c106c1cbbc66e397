import { useEffect, useRef } from 'react';
import { canPin } from '../../../core/editing/deactivate';
import type { FlowNode, PinnedOutput } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore, type AppState } from '../store/app-store';
import { outputPreview } from '../store/run-slice';
import { readOnlyShown } from '../store/versions-slice';
import { pinDraftKey, pinDrafts, type PinDraft } from './json-drafts';

/** Where the pin editor's text field is, to focus it when the P key opens it. */
const PIN_TEXT_ID = 'node-pin-text';

/** How a value shows for editing: text as it is, anything else as indented JSON. */
function draftOf(value: unknown): PinDraft {
  return typeof value === 'string'
    ? { text: value, asJson: false }
    : { text: JSON.stringify(value, null, 2), asJson: true };
}

/** What the draft pins, or why it cannot yet (JSON not valid). */
function readDraft(draft: PinDraft): { output: PinnedOutput } | { error: string } {
  if (!draft.asJson) return { output: draft.text };
  try {
    return { output: JSON.parse(draft.text) as PinnedOutput };
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
}

/** What the run shown gave at the node, when it gave something. */
export function outputSeen(state: AppState, nodeId: string): { output: unknown } | undefined {
  const step = state.run?.steps.findLast((s) => s.nodeId === nodeId);
  return step?.status === 'succeeded' && step.output !== undefined ? { output: step.output } : undefined;
}

/**
 * Starts writing an output to pin on the node, as n8n's "Set mock data": from
 * its pin, else what the run shown gave there, else an empty object for a node
 * that declares JSON (an LLM's schema, an ask node's fields) or empty text.
 */
function startDraft(state: AppState, node: FlowNode): void {
  if (!state.flowId) return;
  const seen = outputSeen(state, node.id);
  const start = node.pin
    ? draftOf(node.pin.output)
    : seen
      ? draftOf(seen.output)
      : nodeRegistry.outputSchema(node)
        ? { text: '{}', asJson: true }
        : { text: '', asJson: false };
  pinDrafts.keep(pinDraftKey(state.flowId, node.id), start);
}

/** What P does to the node: the menu item says it. */
export function pinLabel(state: AppState, node: FlowNode): string {
  if (node.pin) return 'Unpin output';
  return outputSeen(state, node.id) ? 'Pin output' : 'Pin an output…';
}

/**
 * The P key, as n8n's: unpins the selected node, or pins what the run shown
 * gave there; with nothing run there yet it opens the inspector's editor to
 * write an output to pin.
 */
export function togglePin(state: AppState): void {
  const [only, ...more] = state.selectedNodes;
  const node = more.length === 0 ? state.flow?.nodes.find((n) => n.id === only) : undefined;
  if (!node || !canPin(node) || readOnlyShown(state) !== undefined) return;
  if (node.pin) return state.updateNode(node.id, { pin: null });
  const seen = outputSeen(state, node.id);
  if (seen) return state.updateNode(node.id, { pin: { output: seen.output as PinnedOutput } });
  startDraft(state, node);
  state.setPanel('inspector');
  // The inspector draws the editor on the next frame when another tab was open.
  requestAnimationFrame(() => document.getElementById(PIN_TEXT_ID)?.focus());
}

/**
 * The inspector's pinned output: what is pinned with Edit and Unpin, or Pin an
 * output… to write one, as n8n's pinned data is edited in place. What is typed
 * is kept until pinned or cancelled, also while another node is selected, and
 * closing the window asks first; JSON that does not parse is said and not pinned.
 */
export function PinnedOutputSection({ node }: { node: FlowNode }) {
  const flowId = useAppStore((s) => s.flowId);
  const key = pinDraftKey(flowId ?? '', node.id);
  const draft = pinDrafts.useDraft(key);
  if (!canPin(node)) return null;
  const { updateNode } = useAppStore.getState();
  if (draft) return <PinDraftEditor node={node} draft={draft} draftKey={key} />;
  if (!node.pin)
    return (
      <p className="pinned-output">
        <span className="field-label">Pinned output</span>{' '}
        <button className="small" onClick={() => startDraft(useAppStore.getState(), node)}>
          Pin an output…
        </button>
        <span className="muted"> write what runs started here take instead of running the node (P)</span>
      </p>
    );
  return (
    <p className="pinned-output" data-testid="pinned-output">
      <span className="field-label">Pinned output</span> <code>{outputPreview(node.pin.output)}</code>{' '}
      <button className="small" onClick={() => startDraft(useAppStore.getState(), node)}>
        Edit
      </button>{' '}
      <button className="small" onClick={() => updateNode(node.id, { pin: null })}>
        Unpin
      </button>
      <span className="muted"> runs started here take it instead of running the node</span>
    </p>
  );
}

function PinDraftEditor({ node, draft, draftKey }: { node: FlowNode; draft: PinDraft; draftKey: string }) {
  const read = readDraft(draft);
  const text = useRef<HTMLTextAreaElement>(null);
  // Opened by a click: the person goes on typing there.
  useEffect(() => {
    text.current?.focus();
  }, []);
  const pin = () => {
    if (!('output' in read)) return;
    useAppStore.getState().updateNode(node.id, { pin: { output: read.output } });
    pinDrafts.drop(draftKey);
  };
  return (
    <div className="pinned-output field" role="group" aria-label="Output to pin">
      <label className="field-label" htmlFor={PIN_TEXT_ID}>
        {node.pin ? 'Pinned output' : 'Output to pin'}
      </label>
      <textarea
        id={PIN_TEXT_ID}
        ref={text}
        className="mono"
        rows={Math.min(12, Math.max(3, draft.text.split('\n').length))}
        value={draft.text}
        onChange={(e) => pinDrafts.keep(draftKey, { ...draft, text: e.target.value })}
        onKeyDown={(e) => {
          // Ctrl+Enter pins, as it saves elsewhere; stopped here, it does not start a run too.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.stopPropagation();
            pin();
          }
        }}
      />
      <label className="inline">
        <input
          type="checkbox"
          checked={draft.asJson}
          onChange={(e) => pinDrafts.keep(draftKey, { ...draft, asJson: e.target.checked })}
        />{' '}
        JSON (unticked: the text as typed)
      </label>
      {'error' in read && <small className="error">{read.error}: not pinned yet (the text stays here)</small>}
      <div className="pin-actions">
        <button className="small primary" disabled={'error' in read} onClick={pin}>
          {node.pin ? 'Save pin' : 'Pin it'}
        </button>{' '}
        <button className="small" onClick={() => pinDrafts.drop(draftKey)}>
          Cancel
        </button>
        <span className="muted"> Ctrl+Enter pins</span>
      </div>
    </div>
  );
}
