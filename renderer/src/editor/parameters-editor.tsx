import { useEffect, useRef } from 'react';
import { parameterDrafts } from './json-drafts';
import { EnumValuesField } from './values-field';
import { blockingProblems } from '../../../core/model/change-set';
import type { Flow } from '../../../core/model/flow';
import { PARAMETER_TYPES, type Parameter } from '../../../core/model/parameter';
import { validateFlow } from '../../../core/model/validate';
import { nodeRegistry } from '../../../core/nodes/registry';
import { useAppStore } from '../store/app-store';

/**
 * The flow's parameters: what a person types into the Run panel and what an
 * MCP client passes. Shown in the flow settings and in the Input node's
 * inspector, where people look for them.
 */
export function ParametersEditor({ flow }: { flow: Flow }) {
  // Parameters the host would refuse as they are (an enum with no values yet, a name typed twice)
  // stay here, on screen with the reason, until they can be saved: nothing typed is thrown away,
  // also while a node is selected (json-drafts.ts). Parameters saved meanwhile (Undo, another
  // window) replace them.
  const draft = parameterDrafts.useDraft(flow.id);
  const saved = flow.parameters;
  const seen = useRef(saved);
  useEffect(() => {
    if (seen.current !== saved) parameterDrafts.drop(flow.id);
    seen.current = saved;
  }, [saved, flow.id]);
  const setDraft = (next: { parameters: Parameter[]; reason: string } | undefined) =>
    next ? parameterDrafts.keep(flow.id, next) : parameterDrafts.drop(flow.id);
  const shown = draft?.parameters ?? flow.parameters;
  const setParameters = (parameters: Parameter[], key: string) => {
    const blocking = blockingProblems(validateFlow({ ...flow, parameters }, { catalogue: nodeRegistry }).problems);
    if (blocking.length > 0) return setDraft({ parameters, reason: blocking.map((p) => p.message).join('; ') });
    setDraft(undefined);
    useAppStore.getState().updateFlowFields({ parameters }, key);
  };
  const updateParameter = (index: number, patch: Partial<Parameter>) =>
    setParameters(
      shown.map((p, i) => (i === index ? { ...p, ...patch } : p)),
      `parameters.${index}.${Object.keys(patch).join()}`,
    );
  return (
    <div className="parameters" role="group" aria-label="Parameters">
      {shown.map((parameter, index) => (
        <div className="parameter" key={index} data-testid={`parameter-${index}`}>
          <input
            aria-label={`Parameter ${index + 1} name`}
            value={parameter.name}
            onChange={(e) => updateParameter(index, { name: e.target.value })}
          />
          <select
            aria-label={`Parameter ${index + 1} type`}
            value={parameter.type}
            onChange={(e) => updateParameter(index, { type: e.target.value as Parameter['type'] })}
          >
            {PARAMETER_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <label className="inline">
            <input
              type="checkbox"
              checked={parameter.required}
              onChange={(e) => updateParameter(index, { required: e.target.checked })}
            />{' '}
            required
          </label>
          <textarea
            className="parameter-description"
            aria-label={`Parameter ${index + 1} description`}
            placeholder="description: what a model should pass here"
            rows={2}
            value={parameter.description}
            onChange={(e) => updateParameter(index, { description: e.target.value })}
          />
          {parameter.type === 'enum' && (
            <EnumValuesField
              label={`Parameter ${index + 1} values`}
              values={parameter.enum ?? []}
              onChange={(values) => updateParameter(index, { enum: values })}
            />
          )}
          <button
            className="small"
            onClick={() =>
              setParameters(
                shown.filter((_, i) => i !== index),
                `parameters.remove.${index}`,
              )
            }
          >
            Remove
          </button>
        </div>
      ))}
      <button
        className="small"
        onClick={() => {
          const used = new Set(shown.map((p) => p.name));
          let name = 'input';
          for (let i = 2; used.has(name); i++) name = `input_${i}`;
          setParameters(
            [...shown, { name, type: 'string', description: '', required: true }],
            `parameters.add.${shown.length}`,
          );
        }}
      >
        Add parameter
      </button>
      {draft && (
        <p className="error" role="alert">
          Not saved yet: {draft.reason}
        </p>
      )}
    </div>
  );
}
