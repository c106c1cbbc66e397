import { useMemo, useRef, useState } from 'react';
import { formatProblem } from '../../../core/model/problems';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';
import { ConfigField } from './config-field';
import { FlowSettings } from './flow-settings';
import { ParametersEditor } from './parameters-editor';
import { insertReference } from './reference-target';
import { referencesFor } from './references';

/** Edits the selected node with a form built from its type's schema and hints; the flow's settings otherwise. */
export function Inspector() {
  const flow = useAppStore((s) => s.flow);
  const selected = useAppStore((s) => s.selectedNodes);
  const problems = useAppStore((s) => s.problems);
  const [error, setError] = useState<string | undefined>();
  const panel = useRef<HTMLDivElement>(null);
  const node = selected.length === 1 ? flow?.nodes.find((n) => n.id === selected[0]) : undefined;
  const definition = node ? nodeRegistry.get(node.type) : undefined;
  const references = useMemo(() => (flow && node ? referencesFor(flow, node.id) : []), [flow, node]);

  if (!flow) return null;
  if (selected.length > 1) return <div className="inspector muted">{selected.length} nodes selected</div>;
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
      <label className="field" htmlFor="node-label">
        <span className="field-label">Label</span>
        <input
          id="node-label"
          value={node.label}
          onChange={(e) => useAppStore.getState().updateNode(node.id, { label: e.target.value }, `${node.id}.label`)}
        />
      </label>
      {definition.showsParameters && (
        <section className="node-parameters">
          <h3>Parameters</h3>
          <p className="muted">What the Run panel asks for and what an MCP client passes.</p>
          <ParametersEditor />
        </section>
      )}
      {takesReferences && references.length > 0 && (
        <div className="reference-chips" role="group" aria-label="Insert a reference">
          <span className="field-label">Insert</span>
          {references.map((r) => (
            <button
              key={r.label}
              className="chip"
              title={`Insert {{${r.label}}} where the cursor is (${r.detail})`}
              onClick={() => insertReference(r.label, panel.current)}
            >
              {r.label}
            </button>
          ))}
        </div>
      )}
      {definition.editor.map((field) => (
        <ConfigField
          key={`${node.id}.${field.key}`}
          field={field}
          path={field.key}
          value={node.config[field.key]}
          onChange={(v) => setConfigValue(field.key, v)}
          references={references}
          config={node.config}
        />
      ))}
      {definition.hasRunSettings !== false && (
        <details className="node-settings">
          <summary>Retries and time limit</summary>
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
        </details>
      )}
      {error && (
        <p className="error" role="alert">
          Not saved: {error}
        </p>
      )}
      {nodeProblems.length > 0 && (
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
