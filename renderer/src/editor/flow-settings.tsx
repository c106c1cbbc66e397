import { PARAMETER_TYPES, type Parameter } from '../../../core/model/parameter';
import { useAppStore } from '../store/app-store';

/** The flow's own fields: name, description, how it is offered as a tool, and its parameters. */
export function FlowSettings() {
  const flow = useAppStore((s) => s.flow);
  if (!flow) return null;
  const { updateFlowFields } = useAppStore.getState();
  const setTool = (key: 'name' | 'description' | 'whenToUse' | 'whenNotToUse', value: string) =>
    updateFlowFields({ tool: { [key]: value } }, `tool.${key}`);
  const setParameters = (parameters: Parameter[], key: string) => updateFlowFields({ parameters }, key);
  const updateParameter = (index: number, patch: Partial<Parameter>) =>
    setParameters(
      flow.parameters.map((p, i) => (i === index ? { ...p, ...patch } : p)),
      `parameters.${index}.${Object.keys(patch).join()}`,
    );

  return (
    <div className="inspector flow-settings" aria-label="Flow settings">
      <h2>Flow settings</h2>
      <label className="field" htmlFor="flow-name">
        <span className="field-label">Name</span>
        <input
          id="flow-name"
          value={flow.name}
          onChange={(e) => e.target.value.trim() && updateFlowFields({ name: e.target.value }, 'name')}
        />
      </label>
      <label className="field" htmlFor="flow-description">
        <span className="field-label">Description</span>
        <textarea
          id="flow-description"
          value={flow.description}
          onChange={(e) => updateFlowFields({ description: e.target.value }, 'description')}
        />
      </label>
      <h3>As an MCP tool</h3>
      <label className="field" htmlFor="tool-name">
        <span className="field-label">Tool name</span>
        <input
          id="tool-name"
          value={flow.tool.name}
          pattern="[A-Za-z0-9_.\-]{1,128}"
          onChange={(e) => setTool('name', e.target.value)}
        />
      </label>
      <label className="field" htmlFor="tool-description">
        <span className="field-label">Tool description</span>
        <textarea
          id="tool-description"
          value={flow.tool.description}
          onChange={(e) => setTool('description', e.target.value)}
        />
      </label>
      <label className="field" htmlFor="tool-when">
        <span className="field-label">When to use</span>
        <textarea id="tool-when" value={flow.tool.whenToUse} onChange={(e) => setTool('whenToUse', e.target.value)} />
      </label>
      <label className="field" htmlFor="tool-when-not">
        <span className="field-label">When not to use</span>
        <textarea
          id="tool-when-not"
          value={flow.tool.whenNotToUse}
          onChange={(e) => setTool('whenNotToUse', e.target.value)}
        />
      </label>
      <label className="field inline" htmlFor="tool-enabled">
        <input
          id="tool-enabled"
          type="checkbox"
          checked={flow.tool.enabled}
          onChange={(e) => updateFlowFields({ tool: { enabled: e.target.checked } })}
        />
        <span className="field-label">Offered as a tool (its latest published version)</span>
      </label>
      <h3>Parameters</h3>
      {flow.parameters.map((parameter, index) => (
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
            <input
              aria-label={`Parameter ${index + 1} values`}
              placeholder="values, comma separated"
              value={(parameter.enum ?? []).join(', ')}
              onChange={(e) =>
                updateParameter(index, {
                  enum: e.target.value
                    .split(',')
                    .map((v) => v.trim())
                    .filter(Boolean),
                })
              }
            />
          )}
          <button
            className="small"
            onClick={() =>
              setParameters(
                flow.parameters.filter((_, i) => i !== index),
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
          const used = new Set(flow.parameters.map((p) => p.name));
          let name = 'input';
          for (let i = 2; used.has(name); i++) name = `input_${i}`;
          setParameters(
            [...flow.parameters, { name, type: 'string', description: '', required: true }],
            `parameters.add.${flow.parameters.length}`,
          );
        }}
      >
        Add parameter
      </button>
    </div>
  );
}
