import { useAppStore } from '../store/app-store';
import { MemorySection } from './memory-section';
import { ParametersEditor } from './parameters-editor';
import { ToolIconField } from './tool-icon-field';
import { VersionsSection } from './versions-section';

/** The flow's own fields: name, description, how it is offered as a tool, its parameters and memory channels. */
export function FlowSettings() {
  const flow = useAppStore((s) => s.flow);
  if (!flow) return null;
  const { updateFlowFields } = useAppStore.getState();
  const setTool = (key: 'name' | 'description' | 'whenToUse' | 'whenNotToUse', value: string) =>
    updateFlowFields({ tool: { [key]: value } }, `tool.${key}`);

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
      <ToolIconField icon={flow.tool.icon || undefined} />
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
      <ParametersEditor />
      <VersionsSection flow={flow} />
      <MemorySection flowId={flow.id} />
    </div>
  );
}
