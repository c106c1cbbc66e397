import { useAppStore } from '../store/app-store';
import { useTypedText } from './use-typed-text';
import { flowOnCanvas, readOnlyShown } from '../store/versions-slice';
import { MemorySection } from './memory-section';
import { ReadOnlyNote } from './read-only-note';
import { ParametersEditor } from './parameters-editor';
import { ToolIconField } from './tool-icon-field';
import { ToolHintsField } from './tool-hints-field';
import { VersionsSection } from './versions-section';
import { TEXT_LIMITS } from '../../../core/model/flow';
import { toolNameProblem } from '../../../core/model/ids';

/**
 * The flow's own fields: name, description, how it is offered as a tool, its
 * parameters; then its versions and memory channels. Over a past run's flow or
 * a published version, the fields are that flow's, read-only; the versions and
 * memory are the draft's, as they are whatever the canvas shows.
 */
export function FlowSettings() {
  const draft = useAppStore((s) => s.flow);
  const flow = useAppStore(flowOnCanvas);
  const readOnly = useAppStore(readOnlyShown);
  if (!flow || !draft) return null;
  const { updateFlowFields } = useAppStore.getState();
  const setTool = (key: 'description' | 'whenToUse' | 'whenNotToUse', value: string) =>
    updateFlowFields({ tool: { [key]: value } }, `tool.${key}`);

  return (
    <div className="inspector flow-settings" aria-label="Flow settings">
      <h2>Flow settings</h2>
      <ReadOnlyNote shown={readOnly} subject="the flow's settings" isPlural />
      <fieldset className="inspector-fields" disabled={readOnly !== undefined}>
        {/* Keyed by flow: a draft typed in one flow's field never shows in another's. */}
        <FlowNameField key={flow.id} name={flow.name} />
        <label className="field" htmlFor="flow-description">
          <span className="field-label">Description</span>
          <textarea
            id="flow-description"
            maxLength={TEXT_LIMITS.flowDescription}
            value={flow.description}
            onChange={(e) => updateFlowFields({ description: e.target.value }, 'description')}
          />
        </label>
        <h3>As an MCP tool</h3>
        <ToolNameField key={flow.id} name={flow.tool.name} />
        <label className="field" htmlFor="tool-description">
          <span className="field-label">Tool description</span>
          <textarea
            id="tool-description"
            maxLength={TEXT_LIMITS.toolDescription}
            value={flow.tool.description}
            onChange={(e) => setTool('description', e.target.value)}
          />
        </label>
        <label className="field" htmlFor="tool-when">
          <span className="field-label">When to use</span>
          <textarea
            id="tool-when"
            maxLength={TEXT_LIMITS.toolWhen}
            value={flow.tool.whenToUse}
            onChange={(e) => setTool('whenToUse', e.target.value)}
          />
        </label>
        <label className="field" htmlFor="tool-when-not">
          <span className="field-label">When not to use</span>
          <textarea
            id="tool-when-not"
            maxLength={TEXT_LIMITS.toolWhen}
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
        <ToolHintsField flow={flow} />
        <h3>Parameters</h3>
        <ParametersEditor flow={flow} />
      </fieldset>
      <VersionsSection flow={draft} />
      <MemorySection flowId={draft.id} />
    </div>
  );
}

/**
 * The flow's name. Emptied to type another, it stays empty on screen (a
 * flow needs a name, so the last one is kept meanwhile, and said); the field
 * used to put the old name back at the last Backspace.
 */
function FlowNameField({ name }: { name: string }) {
  const [text, setText] = useTypedText(
    name,
    (v) => v,
    (typed, v) => typed === v || typed.trim() === '',
  );
  return (
    <label className="field" htmlFor="flow-name">
      <span className="field-label">Name</span>
      <input
        id="flow-name"
        maxLength={TEXT_LIMITS.flowName}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim()) useAppStore.getState().updateFlowFields({ name: e.target.value }, 'name');
        }}
      />
      {text.trim() === '' && <small className="error">a flow needs a name: it stays “{name}” until one is typed</small>}
    </label>
  );
}

/**
 * The name clients call the flow by. A name they cannot call (a character
 * besides letters, digits, _ . and -, or a name of Flowbench's own tools)
 * stays in the field as typed, said why, while the flow keeps its last good
 * one: sent, the host refused it, and the field put the old name back over
 * what was typed.
 */
function ToolNameField({ name }: { name: string }) {
  const [text, setText] = useTypedText(
    name,
    (v) => v,
    (typed, v) => typed === v || toolNameProblem(typed) !== undefined,
  );
  const problem = text === name ? undefined : toolNameProblem(text);
  return (
    <label className="field" htmlFor="tool-name">
      <span className="field-label">Tool name</span>
      <input
        id="tool-name"
        value={text}
        pattern="[A-Za-z0-9_.\-]{1,128}"
        aria-invalid={problem !== undefined}
        aria-describedby={problem ? 'tool-name-problem' : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (!toolNameProblem(e.target.value))
            useAppStore.getState().updateFlowFields({ tool: { name: e.target.value } }, 'tool.name');
        }}
      />
      {problem && (
        <small className="error" id="tool-name-problem">
          {problem}: it stays “{name}” until one is typed
        </small>
      )}
    </label>
  );
}
