import { useState, type FormEvent } from 'react';
import {
  FLOW_SECRET_NAME,
  FLOW_SECRET_NAME_RULE,
  SECRET_STORE_LABELS,
  shortSecretNote,
} from '../../../core/model/secrets';
import type { FlowSecretListing, WantedSecret } from '../../../core/model/secrets';
import { api } from '../api/client';
import { PageMessage } from '../page-message';
import { BackToFlows } from '../page-link';
import { keyFieldNote, useSecretStore } from '../providers/use-secret-store';
import { useKeptState } from '../use-kept-state';
import { useListing } from '../use-listing';

/** The secrets kept here, and those flows read that are not (`wanted`): one list loaded again after each change. */
const loadSecrets = () =>
  Promise.all([api.secrets.list({}), api.secrets.wanted({})]).then(([kept, wanted]) => ({ kept, wanted }));

/**
 * The secrets HTTP request nodes read as `{{secrets.name}}` (n8n's
 * credentials, Dify's secret variables): a flow holds the name only, so it
 * can be exported and shared without the key; the value is entered here once
 * and never shown again.
 */
export function SecretsPage() {
  const { items, message, act } = useListing(loadSecrets);
  const secrets = items?.kept;
  return (
    <main className="providers-page secrets-page">
      <header className="home-header">
        <BackToFlows />
        <h1>Secrets</h1>
      </header>
      <p className="muted">
        HTTP request nodes read these in their URL, query parameters, headers, Basic auth and body as{' '}
        <code>{'{{secrets.name}}'}</code>. A flow and its exported file hold only the name; a run records each value as
        •••. A flow reading one not set here does not start, and says which.
      </p>
      <PageMessage message={message} />
      <section aria-label="Secrets">
        {secrets?.length === 0 && <p className="muted">No secrets yet.</p>}
        {secrets?.map((secret) => (
          <SecretRow key={secret.name} secret={secret} act={act} />
        ))}
      </section>
      {items && items.wanted.length > 0 && (
        <section aria-label="Not set here">
          <h2>Read by flows, not set here</h2>
          <p className="muted">These flows do not run until each is set.</p>
          {items.wanted.map((secret) => (
            <WantedRow key={secret.name} secret={secret} act={act} />
          ))}
        </section>
      )}
      <AddSecret act={act} />
    </main>
  );
}

type Act = (change: () => Promise<unknown>) => Promise<boolean>;

function SecretRow({ secret, act }: { secret: FlowSecretListing; act: Act }) {
  const [replacing, setReplacing] = useState(false);
  // Removing stops every flow that reads it: asked first, as deleting a flow is, naming them.
  const [confirming, setConfirming] = useState(false);
  const readers = secret.readBy.length;
  const [value, setValue] = useKeptState(`secret-value-${secret.name}`, '');
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => api.secrets.set({ name: secret.name, value }))) {
      setValue('');
      setReplacing(false);
    }
  };
  return (
    <div className="provider-row" role="group" aria-label={`Secret ${secret.name}`}>
      <div>
        <code>{`{{secrets.${secret.name}}}`}</code>
        <div className={secret.store === 'plain-text' ? 'warning-text' : 'muted'}>
          kept {SECRET_STORE_LABELS[secret.store]}
        </div>
        <div className="muted">{readers === 0 ? 'read by no flow' : `read by ${secret.readBy.join(', ')}`}</div>
      </div>
      {replacing && (
        <form className="run-actions" onSubmit={(e) => void save(e)}>
          <input
            type="password"
            aria-label={`New value of ${secret.name}`}
            placeholder="new value"
            autoComplete="new-password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoFocus
          />
          <ShortValueNote value={value} />
          <button className="primary" type="submit" disabled={value === ''}>
            Save value
          </button>
          <button type="button" onClick={() => setReplacing(false)}>
            Cancel
          </button>
        </form>
      )}
      {!replacing && confirming && (
        <div className="run-actions" role="alertdialog" aria-label={`Remove ${secret.name}?`}>
          <span className={readers > 0 ? 'warning-text' : 'muted'}>
            {readers === 0
              ? 'No flow reads it.'
              : `${readers === 1 ? 'This flow' : `These ${readers} flows`} will not start until it is set again: ${secret.readBy.join(', ')}.`}
          </span>
          <button
            className="danger"
            onClick={() => void act(() => api.secrets.remove({ name: secret.name })).then(() => setConfirming(false))}
          >
            Remove {`{{secrets.${secret.name}}}`}
          </button>
          <button onClick={() => setConfirming(false)}>Keep</button>
        </div>
      )}
      {!replacing && !confirming && (
        <div className="run-actions">
          <button onClick={() => setReplacing(true)}>Replace value…</button>
          <button onClick={() => setConfirming(true)}>Remove…</button>
        </div>
      )}
    </div>
  );
}

/** A secret a flow reads that is not set here (an imported flow, another machine's): its value is typed in place. */
function WantedRow({ secret, act }: { secret: WantedSecret; act: Act }) {
  const [value, setValue] = useKeptState(`secret-value-${secret.name}`, '');
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => api.secrets.set({ name: secret.name, value }))) setValue('');
  };
  return (
    <div className="provider-row" role="group" aria-label={`Secret ${secret.name}, not set`}>
      <div>
        <code>{`{{secrets.${secret.name}}}`}</code>
        <div className="warning-text">not set here; read by {secret.readBy.join(', ')}</div>
      </div>
      <form className="run-actions" onSubmit={(e) => void save(e)}>
        <input
          type="password"
          aria-label={`Value of ${secret.name}`}
          placeholder="value"
          autoComplete="new-password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <ShortValueNote value={value} />
        <button className="primary" type="submit" disabled={value === ''}>
          Save value
        </button>
      </form>
    </div>
  );
}

function AddSecret({ act }: { act: Act }) {
  // What is typed here is there as left after a look at another page (useKeptState).
  const [name, setName] = useKeptState('secret-name', '');
  const [value, setValue] = useKeptState('secret-value', '');
  const where = useSecretStore();
  const nameProblem = name !== '' && !FLOW_SECRET_NAME.test(name) ? `a name: ${FLOW_SECRET_NAME_RULE}` : undefined;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => api.secrets.set({ name, value }))) {
      setName('');
      setValue('');
    }
  };
  return (
    <form className="add-provider" aria-label="Add a secret" onSubmit={(e) => void save(e)}>
      <h2>Add a secret</h2>
      <label className="field">
        <span className="field-label">Name</span>
        <input value={name} placeholder="github_token" onChange={(e) => setName(e.target.value)} />
        <small className={nameProblem ? 'error' : undefined}>
          {nameProblem ?? `flows read it as {{secrets.${name || 'name'}}}`}
        </small>
      </label>
      <label className="field">
        <span className="field-label">Value</span>
        <input type="password" autoComplete="new-password" value={value} onChange={(e) => setValue(e.target.value)} />
        {shortSecretNote(value) ? <ShortValueNote value={value} /> : <small>{keyFieldNote(where)}</small>}
      </label>
      <div className="run-actions">
        <button className="primary" type="submit" disabled={name === '' || value === '' || nameProblem !== undefined}>
          Save secret
        </button>
      </div>
    </form>
  );
}

/** Said as a value is typed that is too short for runs to hide (core/model/secrets.ts). */
function ShortValueNote({ value }: { value: string }) {
  const note = shortSecretNote(value);
  return note ? <small className="warning-text">{note}</small> : null;
}
