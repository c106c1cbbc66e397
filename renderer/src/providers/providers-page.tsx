import { useEffect, useState } from 'react';
import { toFlowbenchError } from '../../../core/model/errors';
import {
  needsKey,
  PRESETS,
  PROVIDER_KINDS,
  PROVIDER_NAME_RULE,
  type ProviderKind,
} from '../../../core/model/provider-config';
import type { PriceTable } from '../../../core/model/pricing';
import type { ProviderListing } from '../../../core/model/summaries';
import { api } from '../api/client';
import { PageMessage } from '../page-message';
import { useProviders } from './use-providers';
import { keyFieldNote, useSecretStore } from './use-secret-store';
import { SECRET_STORE_LABELS } from '../../../core/model/secrets';
import { BackToFlows } from '../page-link';
import { useKeptState } from '../use-kept-state';
import { changedSettings, ProviderSettingsForm, type Act } from './provider-settings-form';

const KIND_LABELS: Record<ProviderKind, string> = {
  'openai-compatible': 'OpenAI-compatible endpoint (Ollama, LM Studio, vLLM, …)',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

type Detected = Awaited<ReturnType<typeof api.providers.detect>>;

/**
 * Model providers: the presets and the person's own, which one is the
 * default, a test that lists each one's models, and local servers found on
 * their default ports. Keys are entered once and never shown again.
 */
export function ProvidersPage() {
  const { providers, reload } = useProviders();
  const [detected, setDetected] = useState<Detected | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  useEffect(() => {
    void api.providers
      .detect({})
      .then(setDetected)
      .catch(() => setDetected([]));
  }, []);
  /** Runs a change and lists the providers again; a refusal is said by `say` (at the top of the page unless told). */
  const act: Act = async (change, say = setMessage) => {
    say(undefined);
    try {
      await change();
      await reload();
    } catch (error) {
      say(toFlowbenchError(error).message);
    }
  };
  const hasDefault = providers?.some((p) => p.isDefault) ?? true;

  return (
    <main className="providers-page">
      <header className="home-header">
        <BackToFlows />
        <h1>Model providers</h1>
      </header>
      {!hasDefault && (
        <p className="notice">
          No default provider yet: LLM nodes that name none cannot run. Add one below, or make one the default.
        </p>
      )}
      <PageMessage message={message} />
      {detected && detected.length > 0 && (
        <section aria-label="Found on this machine">
          <h2>Found on this machine</h2>
          {detected.map((d) => (
            <p key={d.name}>
              <strong>{d.name}</strong> answers at <code>{d.url}</code> with {d.models.length} model
              {d.models.length === 1 ? '' : 's'}.{' '}
              <button onClick={() => void act(() => api.providers.setDefault({ name: d.name }))}>
                Use it as default
              </button>
            </p>
          ))}
        </section>
      )}
      <section aria-label="Providers">
        <h2>Providers</h2>
        {providers?.map((p) => (
          <ProviderRow key={p.name} provider={p} act={act} />
        ))}
      </section>
      <AddProvider act={act} />
      <Prices />
    </main>
  );
}

function ProviderRow({ provider, act }: { provider: ProviderListing; act: Act }) {
  const [models, setModels] = useState<string[] | undefined>(undefined);
  const [testResult, setTestResult] = useState<string | undefined>(undefined);
  const [model, setModel] = useState(provider.defaultModel ?? '');
  const [editing, setEditing] = useState(false);
  const listId = `models-${provider.name}`;
  const test = async () => {
    setTestResult('asking…');
    try {
      const result = await api.providers.test({ name: provider.name });
      setModels(result.models);
      setTestResult(`reachable: ${result.models.length} model${result.models.length === 1 ? '' : 's'}`);
    } catch (error) {
      setTestResult(toFlowbenchError(error).message);
    }
  };
  const saveModel = () =>
    act(() =>
      api.providers.set({
        provider: changedSettings(provider, { defaultModel: model }),
        isDefault: provider.isDefault,
      }),
    );
  return (
    <div className="provider-row" aria-label={`Provider ${provider.name}`} role="group">
      <div>
        <strong>{provider.name}</strong> {provider.isDefault && <span className="badge">default</span>}
        <div className="muted">
          {KIND_LABELS[provider.kind]} · <code>{provider.url}</code> · key:{' '}
          {provider.keyStore ? (
            <span className={provider.keyStore === 'plain-text' ? 'warning-text' : undefined}>
              stored {SECRET_STORE_LABELS[provider.keyStore]}
            </span>
          ) : provider.apiKey === 'environment' ? (
            'from the environment'
          ) : needsKey(provider) ? (
            // OpenAI's and Anthropic's APIs answer nothing without one.
            <span className="warning-text">none (it needs one: Edit)</span>
          ) : (
            'none'
          )}
        </div>
      </div>
      <label className="field" htmlFor={`${listId}-input`}>
        <span className="field-label">Default model</span>
        <input
          id={`${listId}-input`}
          list={listId}
          value={model}
          placeholder={models ? 'pick from the list, or type' : 'Test to list the models'}
          onChange={(e) => setModel(e.target.value)}
          onBlur={() => model !== (provider.defaultModel ?? '') && void saveModel()}
        />
        <datalist id={listId}>
          {models?.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      {models && (
        <ul className="model-list" aria-label={`Models of ${provider.name}`}>
          {models.map((m) => (
            <li key={m}>
              <button className="link" onClick={() => setModel(m)}>
                {m}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="run-actions">
        <button onClick={() => void test()}>Test</button>
        {model !== (provider.defaultModel ?? '') && <button onClick={() => void saveModel()}>Save model</button>}
        {!provider.isDefault && (
          <button onClick={() => void act(() => api.providers.setDefault({ name: provider.name }))}>
            Make default
          </button>
        )}
        <button aria-expanded={editing} onClick={() => setEditing(!editing)}>
          Edit…
        </button>
        {!provider.isPreset && (
          // A preset changed here goes back to how it ships (its key too); one of the person's own goes.
          <button onClick={() => void act(() => api.providers.remove({ name: provider.name }))}>
            {PRESETS.some((p) => p.name === provider.name) ? 'Reset to preset' : 'Remove'}
          </button>
        )}
      </div>
      {testResult && (
        <p className="muted" role="status">
          {testResult}
        </p>
      )}
      {editing && <ProviderSettingsForm provider={provider} act={act} onDone={() => setEditing(false)} />}
    </div>
  );
}

function AddProvider({ act }: { act: Act }) {
  // What is typed here is there as left after a look at another page (useKeptState).
  const [name, setName] = useKeptState('provider-name', '');
  // Said in the form, beside the button pressed: the page's top may be out of view down here.
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [kind, setKind] = useKeptState<ProviderKind>('provider-kind', 'openai-compatible');
  const [baseUrl, setBaseUrl] = useKeptState('provider-url', '');
  const [apiKey, setApiKey] = useKeptState('provider-key', '');
  const [isDefault, setDefault] = useKeptState('provider-default', true);
  const secretStore = useSecretStore();
  const save = () =>
    act(async () => {
      await api.providers.set({
        provider: {
          name: name.trim(),
          kind,
          streaming: true,
          ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
          ...(apiKey ? { apiKey } : {}),
        },
        isDefault,
      });
      // Entered once: the key leaves the page as soon as it is stored.
      setApiKey('');
      setName('');
      setBaseUrl('');
    }, setProblem);
  return (
    // A form: Enter in any field saves, and the key's password field is where browsers expect it.
    <form
      aria-label="Add a provider"
      className="add-provider"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) void save();
      }}
    >
      <h2>Add a provider</h2>
      <label className="field" htmlFor="provider-name">
        <span className="field-label">Name</span>
        {/* The name rule as the browser reads a pattern (the v flag: a literal - is escaped). */}
        <input
          id="provider-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="local"
          required
          pattern="[A-Za-z0-9_.\-]{1,64}"
          title={PROVIDER_NAME_RULE}
        />
      </label>
      <label className="field" htmlFor="provider-kind">
        <span className="field-label">Kind</span>
        <select id="provider-kind" value={kind} onChange={(e) => setKind(e.target.value as ProviderKind)}>
          {PROVIDER_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label className="field" htmlFor="provider-url">
        <span className="field-label">Base URL{kind === 'openai-compatible' ? '' : ' (optional)'}</span>
        <input
          id="provider-url"
          type="url"
          required={kind === 'openai-compatible'}
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder="http://127.0.0.1:11434/v1"
        />
      </label>
      <label className="field" htmlFor="provider-key">
        <span className="field-label">API key ({keyFieldNote(secretStore)})</span>
        <input
          id="provider-key"
          type="password"
          autoComplete="new-password"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </label>
      <label className="field inline" htmlFor="provider-default">
        <input
          id="provider-default"
          type="checkbox"
          checked={isDefault}
          onChange={(e) => setDefault(e.target.checked)}
        />
        <span className="field-label">Make it the default</span>
      </label>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="primary" disabled={!name.trim()}>
        Save provider
      </button>
    </form>
  );
}

/**
 * What each model costs, in dollars per million tokens: runs and steps show a
 * cost only for models priced here (nothing is assumed; local models are free).
 */
function Prices() {
  const [table, setTable] = useState<PriceTable | undefined>(undefined);
  const [model, setModel] = useState('');
  const [provider, setProvider] = useState('');
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    void api.providers.prices({}).then(setTable);
  }, []);
  const change = async (request: () => Promise<PriceTable>) => {
    try {
      setTable(await request());
      setProblem(undefined);
      return true;
    } catch (error) {
      setProblem(toFlowbenchError(error).message);
      return false;
    }
  };
  const add = async () => {
    const saved = await change(() =>
      api.providers.setPrice({
        price: { model: model.trim(), provider, inputPerMillion: Number(input), outputPerMillion: Number(output) },
      }),
    );
    if (saved) setModel('');
  };
  return (
    <section aria-label="Prices" className="add-provider">
      <h2>Prices</h2>
      <p className="muted">Dollars per million tokens. A model without a price has no cost in runs.</p>
      <table className="runs-table">
        <tbody>
          {table?.prices.map((p) => (
            <tr key={`${p.provider}/${p.model}`}>
              <td>{p.model}</td>
              <td>{p.provider || 'any provider'}</td>
              <td>in ${p.inputPerMillion}/M</td>
              <td>out ${p.outputPerMillion}/M</td>
              <td>
                <button
                  className="small"
                  onClick={() => void change(() => api.providers.removePrice({ model: p.model, provider: p.provider }))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="price-inputs">
        <input aria-label="Priced model" placeholder="model" value={model} onChange={(e) => setModel(e.target.value)} />
        <input
          aria-label="At provider"
          placeholder="any provider"
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
        />
        <input
          aria-label="Input price"
          type="number"
          step="any"
          placeholder="in $/M"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <input
          aria-label="Output price"
          type="number"
          step="any"
          placeholder="out $/M"
          value={output}
          onChange={(e) => setOutput(e.target.value)}
        />
        <button disabled={!model.trim() || input === '' || output === ''} onClick={() => void add()}>
          Set price
        </button>
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
