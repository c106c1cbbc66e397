import { useEffect, useState } from 'react';
import {
  TOOL_ERROR_POLICIES,
  type AgentSettings,
  type AgentSummary,
  type AgentVersion,
} from '../../../core/model/agents';
import { api } from '../api/client';
import { toolLabel } from '../../../core/model/tools';
import { PageMessage } from '../page-message';
import { useListing } from '../use-listing';
import { Suggestions } from '../editor/config-field';
import { ToolChecklist, type ToolRef } from '../editor/tool-checklist';
import { BackToFlows } from '../page-link';
import { useAutoSave, type AutoSaveState } from './use-auto-save';

const toolsText = (tools: readonly ToolRef[]) => tools.map(toolLabel).join('\n');
const toolsFrom = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('/');
      return at > 0 ? { server: line.slice(0, at), tool: line.slice(at + 1) } : { server: '', tool: line };
    });

/**
 * The agent library: named agents with a draft (system prompt, provider and
 * model, the tools they may call, a step limit) and published versions that
 * agent nodes and imported flow steps run. Agents an import created are
 * marked for review; flows using them publish once they are reviewed.
 */
const loadAgents = () => api.agents.list({});

export function AgentsPage() {
  const { items: agents, message, act, reload } = useListing(loadAgents);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [newName, setNewName] = useState('');
  const agent = agents?.find((a) => a.id === selected);

  return (
    <main className="providers-page agents-page">
      <header className="home-header">
        <BackToFlows />
        <h1>Agents</h1>
      </header>
      <p className="muted">
        An agent is a system prompt, a model and the tools it may use (from MCP servers, and published flows), with a
        step limit. Publish a version; an Agent node in a flow runs that version.
      </p>
      <PageMessage message={message} />
      <form
        className="row-actions"
        aria-label="New agent"
        onSubmit={(e) => {
          e.preventDefault();
          const name = newName.trim();
          if (!name) return;
          void act(async () => {
            const created = await api.agents.create({ name, draft: {} });
            setSelected(created.id);
            setNewName('');
          });
        }}
      >
        <input
          aria-label="New agent name"
          placeholder="Name"
          // Said by the browser at the field when empty, as a click on New agent did nothing before.
          required
          pattern=".*\S.*"
          title="a name for the agent"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
        />
        <button type="submit">New agent</button>
      </form>
      <section aria-label="Agents">
        {agents?.length === 0 && <p className="muted">No agents yet.</p>}
        {agents?.map((a) => (
          <button
            key={a.id}
            className={`provider-row agent-row${a.id === selected ? ' selected' : ''}`}
            aria-label={`Agent ${a.name}`}
            onClick={() => setSelected(a.id)}
          >
            <strong>{a.name}</strong> {a.status === 'review' && <span className="badge warning">imported: review</span>}
            <span className="muted">
              {a.latestVersion ? ` v${a.latestVersion.version}` : ' not published'} · {a.draft.model || 'default model'}{' '}
              · {a.draft.tools.length} tool{a.draft.tools.length === 1 ? '' : 's'}
            </span>
          </button>
        ))}
      </section>
      {/* Keyed by the agent alone: a save of its draft reloads the list, and must not start the editor over. */}
      {agent && <AgentEditor key={agent.id} agent={agent} act={act} onSaved={reload} />}
    </main>
  );
}

function AgentEditor({
  agent,
  act,
  onSaved,
}: {
  agent: AgentSummary;
  act: (change: () => Promise<unknown>) => Promise<boolean>;
  /** A draft was saved: the list's line of the agent says what it now is. */
  onSaved: () => Promise<void>;
}) {
  const [name, setName] = useState(agent.name);
  const [settings, setSettings] = useState<AgentSettings>(agent.draft);
  const [tools, setTools] = useState(toolsText(agent.draft.tools));
  const [versions, setVersions] = useState<AgentVersion[]>([]);
  useEffect(() => {
    void api.agents.versions({ id: agent.id }).then(setVersions);
  }, [agent.id, agent.updatedAt, agent.latestVersion?.id]);
  const set = <K extends keyof AgentSettings>(key: K, value: AgentSettings[K]) =>
    setSettings({ ...settings, [key]: value });
  // The draft is saved as it is typed (see useAutoSave); Publish and Mark reviewed save what is pending first.
  const { state: saveState, flush } = useAutoSave({ name, settings, tools }, async (draft) => {
    await api.agents.update({
      id: agent.id,
      name: draft.name,
      draft: { ...draft.settings, tools: toolsFrom(draft.tools) },
    });
    await onSaved().catch(() => undefined);
  });

  return (
    <section className="agent-editor" aria-label={`Edit agent ${agent.name}`}>
      {/* At the top, where it is seen while typing, as the flow editor's toolbar says it. */}
      <DraftState state={saveState} />
      {agent.status === 'review' && (
        <p className="notice">
          An import made this agent for an agent version Flowbench did not know. It runs with the default provider and
          model; what you save here is what the flow's steps run. Check its settings, then mark it reviewed so the flows
          using it can publish.
        </p>
      )}
      <label className="field">
        <span className="field-label">Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {/* The providers and the chosen provider's models are offered, as the inspector offers them; any text still goes. */}
      <label className="field">
        <span className="field-label">Provider</span>
        <input
          value={settings.provider}
          placeholder="the default provider"
          list="agent-provider-choices"
          onChange={(e) => set('provider', e.target.value)}
        />
        <Suggestions id="agent-provider-choices" kind="providers" context="" />
      </label>
      <label className="field">
        <span className="field-label">Model</span>
        <input
          value={settings.model}
          placeholder="the provider's default"
          list="agent-model-choices"
          onChange={(e) => set('model', e.target.value)}
        />
        <Suggestions id="agent-model-choices" kind="models" context={settings.provider} />
      </label>
      <label className="field">
        <span className="field-label">System prompt</span>
        <textarea value={settings.system} onChange={(e) => set('system', e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">Tools</span>
        <textarea value={tools} onChange={(e) => setTools(e.target.value)} />
        <small>server/tool, one per line, or ticked below; a bare name is looked up on every connected server</small>
      </label>
      <ToolChecklist chosen={toolsFrom(tools)} onChange={(next) => setTools(toolsText(next))} />
      <label className="field">
        <span className="field-label">Max steps</span>
        <input
          type="number"
          min={1}
          max={100}
          value={settings.maxSteps}
          onChange={(e) => set('maxSteps', Number(e.target.value))}
        />
      </label>
      {OPTIONAL_NUMBERS.map(({ key, label, min, max, step }) => (
        <OptionalNumber
          key={key}
          label={label}
          value={settings[key]}
          min={min}
          {...(max !== undefined ? { max } : {})}
          step={step}
          onChange={(v) => set(key, v)}
        />
      ))}
      <label className="field">
        <span className="field-label">When a tool call fails</span>
        <select
          value={settings.toolErrors}
          onChange={(e) => set('toolErrors', e.target.value as AgentSettings['toolErrors'])}
        >
          {TOOL_ERROR_POLICIES.map((p) => (
            <option key={p} value={p}>
              {p === 'fail' ? 'fail the step' : 'tell the model and go on'}
            </option>
          ))}
        </select>
      </label>
      <div className="row-actions">
        <button
          className="primary"
          onClick={() => void act(async () => (await flush(), api.agents.publish({ id: agent.id })))}
        >
          Publish a version
        </button>
        {agent.status === 'review' && (
          <button
            onClick={() => void act(async () => (await flush(), api.agents.update({ id: agent.id, reviewed: true })))}
          >
            Mark reviewed
          </button>
        )}
        <button onClick={() => void act(() => api.agents.remove({ id: agent.id }))}>Remove</button>
      </div>
      <h3>Versions</h3>
      {versions.length === 0 ? (
        <p className="muted">Not published yet: agent nodes name a published version.</p>
      ) : (
        <ul aria-label="Versions">
          {versions.map((v) => (
            <li key={v.id}>
              v{v.version} <code>{v.id}</code> <span className="muted">{new Date(v.publishedAt).toLocaleString()}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Whether the draft on screen is the one stored, as the flow editor's toolbar says it. */
function DraftState({ state }: { state: AutoSaveState }) {
  return (
    <span className={`save-state save-${state.kind === 'refused' ? 'error' : state.kind}`} role="status">
      {state.kind === 'saved'
        ? 'Draft saved'
        : state.kind === 'saving'
          ? 'Saving…'
          : `Not saved: ${state.message} (what you typed is kept)`}
    </span>
  );
}

/** The settings an agent may leave unset: the provider's or the server's default applies then. */
const OPTIONAL_NUMBERS: {
  key: 'temperature' | 'topP' | 'maxTokens' | 'toolTimeoutMs';
  label: string;
  min: number;
  max?: number;
  step: number;
}[] = [
  { key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
  { key: 'topP', label: 'Top P', min: 0, max: 1, step: 0.05 },
  { key: 'maxTokens', label: 'Max tokens', min: 1, step: 1 },
  { key: 'toolTimeoutMs', label: 'Tool time limit (ms)', min: 100, step: 100 },
];

/** A number the agent may leave unset (the provider's or the server's default then applies). */
function OptionalNumber({
  label,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number | undefined;
  min: number;
  max?: number;
  step: number;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        placeholder="default"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </label>
  );
}
