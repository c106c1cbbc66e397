import { useDeferredValue, useRef, useState } from 'react';
import {
  MAX_LOOP_ITERATIONS,
  TEXT_LIMITS,
  type FlowEdge,
  type FlowNode,
  type NodeErrorPolicy,
} from '../../../core/model/flow';
import { formatProblem } from '../../../core/model/problems';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { useKnownOutputs } from './use-known-outputs';
import { flowOnCanvas, readOnlyShown } from '../store/versions-slice';
import { ReadOnlyContext } from './read-only-context';
import { ReadOnlyNote } from './read-only-note';
import { ConfigField } from './config-field';
import { ConnectionsSection } from './connections-section';
import { CalleeValues } from './takes-values';
import { FlowSettings } from './flow-settings';
import { ParametersEditor } from './parameters-editor';
import { ReferenceChips } from './reference-chips';
import { useReferences } from './use-references';
import { canDeactivate } from '../../../core/editing/deactivate';
import { PinnedOutputSection } from './pin-editor';
import { ForEachSection } from './for-each-section';
import { useSecretNames } from './use-secret-names';
import { CurlImport } from './curl-import';

/** Edits the selected node with a form built from its type's schema and hints; the flow's settings otherwise. */
export function Inspector() {
  // A node of the flow on the canvas: a past run's or a published version's when one is shown, read-only.
  const flow = useAppStore(flowOnCanvas);
  const readOnly = useAppStore(readOnlyShown);
  // A new selection shows here just after the canvas shows it, not in the same frame: grabbing a card
  // selects it, and in a 10,000-node flow drawing this panel too (its template fields among it) made the
  // drag's first frame wait about 50 ms more. In small flows too: drawn in the same render as a card just
  // dropped (and selected), the panel left React Flow without that card's ports in 2 of 12 runs of a
  // browser test, and a connection dragged onto it was not taken (12 of 12 deferred). The edits of the
  // flow below are shown as they are made.
  const selected = useDeferredValue(useAppStore((s) => s.selectedNodes));
  const selectedEdges = useDeferredValue(useAppStore((s) => s.selectedEdges));
  const problems = useAppStore((s) => s.problems);
  const [error, setError] = useState<string | undefined>();
  const panel = useRef<HTMLDivElement>(null);
  const node = selected.length === 1 ? flow?.nodes.find((n) => n.id === selected[0]) : undefined;
  const definition = node ? nodeRegistry.get(node.type) : undefined;
  const known = useKnownOutputs(node !== undefined);
  const secrets = useSecretNames(definition?.readsSecrets === true);
  const references = useReferences(flow, node?.id, known, secrets);

  if (!flow) return null;
  if (selected.length > 1) return <div className="inspector muted">{selected.length} nodes selected</div>;
  const loopEdge =
    selected.length === 0 && selectedEdges.length === 1
      ? flow.edges.find((e) => e.id === selectedEdges[0] && e.loop)
      : undefined;
  if (loopEdge) return <LoopSettings edge={loopEdge} readOnly={readOnly} />;
  if (!node || !definition) return <FlowSettings />;

  /** Only configs that parse are saved; a field mid-edit shows why it is not. */
  const setConfigValue = (key: string, value: unknown) => {
    const next = { ...node.config };
    if (value === undefined) delete next[key];
    else next[key] = value;
    const parsed = definition.configSchema.safeParse(next);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(`${issue?.path.join('.') || key}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    setError(undefined);
    useAppStore.getState().updateNode(node.id, { config: next }, `${node.id}.config.${key}`);
  };

  const nodeProblems = problems.filter((p) => p.nodeId === node.id);
  const takesReferences = definition.editor.some((f) => f.kind === 'template' || f.kind === 'list');
  return (
    <div className="inspector" aria-label="Inspector" ref={panel}>
      <h2>
        {definition.label} <code>{node.id}</code>
      </h2>
      <p className="muted">{definition.description}</p>
      <ReadOnlyNote shown={readOnly} subject="this node" />
      <ReadOnlyContext.Provider value={readOnly !== undefined}>
        <fieldset className="inspector-fields" disabled={readOnly !== undefined}>
          <label className="field" htmlFor="node-label">
            <span className="field-label">Label</span>
            <input
              id="node-label"
              maxLength={TEXT_LIMITS.nodeLabel}
              value={node.label}
              onChange={(e) =>
                useAppStore.getState().updateNode(node.id, { label: e.target.value }, `${node.id}.label`)
              }
            />
          </label>
          {canDeactivate(node) && (
            <label className="field inline" htmlFor="node-deactivated">
              <input
                id="node-deactivated"
                type="checkbox"
                checked={node.disabled === true}
                onChange={() => useAppStore.getState().toggleDeactivated([node.id])}
              />
              <span className="field-label">Deactivated (D): runs pass over it, handing on what came into it</span>
            </label>
          )}
          <PinnedOutputSection node={node} />
          {definition.showsParameters && (
            <section className="node-parameters">
              <h3>Parameters</h3>
              <p className="muted">What the Run panel asks for and what an MCP client passes.</p>
              <ParametersEditor flow={flow} />
            </section>
          )}
          {takesReferences && <ReferenceChips key={node.id} references={references} panel={panel} />}
          {node.type === 'http' && <CurlImport node={node} />}
          {definition.editor.map((field) => (
            <ConfigField
              key={`${node.id}.${field.key}`}
              field={field}
              path={field.key}
              value={node.config[field.key]}
              onChange={(v) => setConfigValue(field.key, v)}
              references={references}
              config={node.config}
              scope={`${flow.id}:${node.id}`}
            />
          ))}
          <CalleeValues node={node} flow={flow} />
          <ForEachSection flow={flow} node={node} references={references} />
        </fieldset>
        {/* Outside the disabled fieldset: read-only, its links still show the node at the other end. */}
        <ConnectionsSection flow={flow} node={node} />
        <fieldset className="inspector-fields" disabled={readOnly !== undefined}>
          {definition.hasRunSettings !== false && (
            <details className="node-settings">
              <summary>Retries, time limit and failure</summary>
              <label className="field" htmlFor="node-attempts">
                <span className="field-label">Attempts (timeouts, 429, 5xx, network)</span>
                <input
                  id="node-attempts"
                  type="number"
                  min={1}
                  max={10}
                  value={node.maxAttempts ?? 1}
                  onChange={(e) =>
                    useAppStore
                      .getState()
                      .updateNode(
                        node.id,
                        { maxAttempts: Math.min(10, Math.max(1, Number(e.target.value) || 1)) },
                        `${node.id}.attempts`,
                      )
                  }
                />
              </label>
              <label className="field" htmlFor="node-timeout">
                <span className="field-label">Time limit (seconds)</span>
                <input
                  id="node-timeout"
                  type="number"
                  min={1}
                  value={node.timeoutMs ? node.timeoutMs / 1000 : ''}
                  placeholder="120"
                  onChange={(e) =>
                    useAppStore
                      .getState()
                      .updateNode(
                        node.id,
                        { timeoutMs: e.target.value ? Math.max(1, Math.round(Number(e.target.value) * 1000)) : null },
                        `${node.id}.timeout`,
                      )
                  }
                />
              </label>
              <FailureSetting
                node={node}
                hasErrorEdge={flow.edges.some((e) => e.source === node.id && e.sourcePort === 'error')}
              />
            </details>
          )}
        </fieldset>
      </ReadOnlyContext.Provider>
      {error && (
        <p className="error" role="alert">
          Not saved: {error}
        </p>
      )}
      {nodeProblems.length > 0 && !readOnly && (
        <ul className="node-problems">
          {nodeProblems.map((p, i) => (
            <li key={i} className={p.severity}>
              {formatProblem(p)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What the node's failure does to the run (FlowNode.onError), in the words of the choice. */
function FailureSetting({ node, hasErrorEdge }: { node: FlowNode; hasErrorEdge: boolean }) {
  const choices: { value: NodeErrorPolicy | ''; label: string }[] = [
    { value: '', label: hasErrorEdge ? 'Follow the error edge; the run goes on' : 'Fail the run' },
    {
      value: 'continue',
      label: hasErrorEdge ? 'Follow the error edge; the run goes on' : 'Go on: skip what follows this node',
    },
    { value: 'fail', label: hasErrorEdge ? 'Follow the error edge, then fail the run' : 'Fail the run' },
  ];
  return (
    <label className="field" htmlFor="node-on-error">
      <span className="field-label">When it fails</span>
      <select
        id="node-on-error"
        value={node.onError ?? ''}
        onChange={(e) =>
          useAppStore
            .getState()
            .updateNode(node.id, { onError: (e.target.value || null) as NodeErrorPolicy | null }, `${node.id}.onError`)
        }
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.value === '' ? `Default: ${c.label.toLowerCase()}` : c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A loop edge selected: how many passes it allows. */
function LoopSettings({ edge, readOnly }: { edge: FlowEdge; readOnly: string | undefined }) {
  const max = edge.loop?.maxIterations ?? 2;
  // What the person types stays on screen while it is not a limit yet ("1" on the way to "12").
  const [draft, setDraft] = useState<string | undefined>();
  const value = Number(draft);
  const isValid = draft === undefined || (Number.isInteger(value) && value >= 2 && value <= MAX_LOOP_ITERATIONS);
  return (
    <div className="inspector" aria-label="Inspector">
      <h2>
        Loop <code>{edge.id}</code>
      </h2>
      <p className="muted">
        Each time <code>{edge.source}</code> takes its <code>{edge.sourcePort}</code> port, the nodes from{' '}
        <code>{edge.target}</code> to <code>{edge.source}</code> run again, each run recorded as a pass. What follows
        the loop runs once, on the last pass. Wanting a pass beyond the limit fails <code>{edge.source}</code> with
        LOOP_LIMIT.
      </p>
      <ReadOnlyNote shown={readOnly} subject="this loop" />
      <label className="field" htmlFor="loop-limit">
        <span className="field-label">Passes at most (the first included)</span>
        <input
          id="loop-limit"
          type="number"
          min={2}
          max={MAX_LOOP_ITERATIONS}
          value={draft ?? String(max)}
          disabled={readOnly !== undefined}
          aria-invalid={!isValid}
          onChange={(e) => {
            const text = e.target.value;
            const next = Number(text);
            const fits = Number.isInteger(next) && next >= 2 && next <= MAX_LOOP_ITERATIONS;
            setDraft(fits ? undefined : text);
            if (fits) useAppStore.getState().setLoopLimit(edge.id, next);
          }}
          onBlur={() => setDraft(undefined)}
        />
      </label>
      {!isValid && (
        <p className="error" role="alert">
          Not saved: a loop allows 2 to {MAX_LOOP_ITERATIONS} passes.
        </p>
      )}
    </div>
  );
}
