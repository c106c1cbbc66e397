import { useState, type ClipboardEvent, type InputHTMLAttributes } from 'react';
import { splitCommandLine } from '../../../core/model/command-line';
import { SECRET_MASK, SERVER_NAME_RULE, serverTarget, type McpServerConfig } from '../../../core/model/tools';
import { keyFieldNote, useSecretStore } from '../providers/use-secret-store';
import { api } from '../api/client';
import { PageMessage } from '../page-message';
import { JsonValue } from '../run/json-value';
import { useListing } from '../use-listing';
import { ImportServers } from './import-servers';
import { BackToFlows } from '../page-link';
import { useKeptState } from '../use-kept-state';

/** `NAME=value` lines to a record, and back; the secrets the editor never holds stay masked. */
const toLines = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
function fromLines(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      return at > 0 ? ([line.slice(0, at).trim(), line.slice(at + 1)] as const) : ([line, ''] as const);
    });
  return Object.fromEntries(entries);
}

interface Draft {
  previousName?: string;
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  connectTimeoutMs: string;
  toolTimeoutMs: string;
}

const EMPTY: Draft = {
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: '',
  cwd: '',
  url: '',
  headers: '',
  connectTimeoutMs: '20000',
  toolTimeoutMs: '60000',
};

function draftOf(config: McpServerConfig): Draft {
  return {
    ...EMPTY,
    previousName: config.name,
    name: config.name,
    transport: config.transport,
    connectTimeoutMs: String(config.connectTimeoutMs),
    toolTimeoutMs: String(config.toolTimeoutMs),
    ...(config.transport === 'stdio'
      ? { command: config.command, args: config.args.join('\n'), env: toLines(config.env), cwd: config.cwd ?? '' }
      : { url: config.url, headers: toLines(config.headers) }),
  };
}

function configOf(draft: Draft): Record<string, unknown> {
  const base = {
    name: draft.name.trim(),
    connectTimeoutMs: Number(draft.connectTimeoutMs),
    toolTimeoutMs: Number(draft.toolTimeoutMs),
  };
  return draft.transport === 'stdio'
    ? {
        ...base,
        transport: 'stdio',
        command: draft.command.trim(),
        args: draft.args.split('\n').filter((a) => a !== ''),
        env: fromLines(draft.env),
        ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
      }
    : { ...base, transport: 'http', url: draft.url.trim(), headers: fromLines(draft.headers) };
}

/**
 * MCP servers whose tools agents and MCP tool nodes call: add one (a command
 * over stdio, or a Streamable HTTP URL), see how each stands and why it last
 * failed, test it (connects and lists its tools), edit or remove it. Secrets
 * in env and headers are shown masked; saving keeps them.
 */
const loadServers = () => api.servers.list({});

export function ServersPage() {
  const { items: servers, message, act } = useListing(loadServers);
  // The form open when the page was left, as it was left (a look at a flow, at Connect a client).
  const [draft, setDraft] = useKeptState<Draft | undefined>('server-form', undefined);
  const [testing, setTesting] = useState<string | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const test = async (name: string) => {
    setTesting(name);
    await act(() => api.servers.test({ name }));
    setTesting(undefined);
  };

  return (
    <main className="providers-page servers-page">
      <header className="home-header">
        <BackToFlows />
        <h1>MCP servers</h1>
        <button onClick={() => setDraft({ ...EMPTY })}>Add a server</button>
        <button onClick={() => setImporting(true)}>Import from a client…</button>
      </header>
      <p className="muted">
        Agents and MCP tool nodes call the tools of these servers. Flowbench starts or connects to each when a run first
        needs it.
      </p>
      <PageMessage message={message} />
      {importing && (
        <ImportServers onImported={() => act(() => Promise.resolve())} onClose={() => setImporting(false)} />
      )}
      {draft && (
        <ServerForm
          draft={draft}
          onChange={setDraft}
          onCancel={() => setDraft(undefined)}
          onSave={async () => {
            const saved = await act(() =>
              api.servers.set({
                server: configOf(draft) as McpServerConfig,
                ...(draft.previousName ? { previousName: draft.previousName } : {}),
              }),
            );
            if (saved) setDraft(undefined);
          }}
        />
      )}
      <section aria-label="Servers">
        {servers?.length === 0 && (
          <p className="muted">
            No servers yet. Add one, or import those Claude Desktop, Cursor or VS Code already have.
          </p>
        )}
        {servers?.map(({ config, status }) => (
          <div key={config.name} className="provider-row" role="group" aria-label={`Server ${config.name}`}>
            <div>
              <strong>{config.name}</strong>{' '}
              <span className={`badge server-${status.state}`}>
                {testing === config.name ? 'connecting…' : status.state}
              </span>
              <div className="muted">
                <code>{serverTarget(config)}</code>
                {status.serverInfo && ` · ${status.serverInfo.name} ${status.serverInfo.version}`}
                {status.transport === 'sse' && ' · over the older HTTP+SSE transport'}
              </div>
              {status.lastError && status.state !== 'connected' && (
                <p className="error">
                  {status.lastError.code}: {status.lastError.message}
                </p>
              )}
              {status.tools && (
                <details>
                  <summary>
                    {status.tools.length} tool{status.tools.length === 1 ? '' : 's'}
                  </summary>
                  <ul aria-label={`Tools of ${config.name}`}>
                    {status.tools.map((tool) => (
                      <li key={tool.name}>
                        <details>
                          <summary>
                            <code>{tool.name}</code> <span className="muted">{tool.description?.split('\n')[0]}</span>
                          </summary>
                          <small className="muted">input schema</small>
                          <JsonValue value={tool.inputSchema} />
                        </details>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
            <div className="row-actions">
              <button onClick={() => void test(config.name)}>Test</button>
              <button onClick={() => setDraft(draftOf(config))}>Edit</button>
              <button onClick={() => void act(() => api.servers.remove({ name: config.name }))}>Remove</button>
            </div>
          </div>
        ))}
      </section>
    </main>
  );
}

function ServerForm({
  draft,
  onChange,
  onSave,
  onCancel,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  onSave: () => Promise<void>;
  onCancel: () => void;
}) {
  const secretStore = useSecretStore();
  const [splitNote, setSplitNote] = useState<string>();
  // A whole command line pasted over the command, with no arguments yet: each part where it goes, and said.
  const pasteCommand = (e: ClipboardEvent<HTMLInputElement>) => {
    const field = e.currentTarget;
    const replacesAll = field.selectionStart === 0 && field.selectionEnd === field.value.length;
    const split =
      replacesAll && draft.args.trim() === '' ? splitCommandLine(e.clipboardData.getData('text')) : undefined;
    if (!split) return;
    e.preventDefault();
    onChange({ ...draft, command: split.command, args: split.args.join('\n') });
    const count = `${split.args.length} argument${split.args.length === 1 ? '' : 's'}`;
    setSplitNote(`Split at its spaces, as quoted: the command ${split.command}, and ${count} under Arguments`);
  };
  // What a field needs is checked where it is typed, as the host will check it (core/model/tools.ts).
  const field = (
    key: keyof Draft,
    label: string,
    options: {
      multiline?: boolean;
      help?: string;
      rules?: InputHTMLAttributes<HTMLInputElement>;
      onPaste?: (e: ClipboardEvent<HTMLInputElement>) => void;
    } = {},
  ) => (
    <label className="field">
      <span className="field-label">{label}</span>
      {options.multiline ? (
        <textarea value={draft[key] ?? ''} onChange={(e) => onChange({ ...draft, [key]: e.target.value })} />
      ) : (
        <input
          value={draft[key] ?? ''}
          onChange={(e) => onChange({ ...draft, [key]: e.target.value })}
          onPaste={options.onPaste}
          {...options.rules}
        />
      )}
      {options.help && <small>{options.help}</small>}
    </label>
  );
  return (
    <form
      className="server-form"
      aria-label={draft.previousName ? `Edit ${draft.previousName}` : 'Add a server'}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      {field('name', 'Name', {
        // The name rule of core/model/tools.ts as the browser reads a pattern (the v flag: a literal - is escaped).
        rules: { required: true, pattern: '[A-Za-z0-9_.\\-]{1,64}', title: SERVER_NAME_RULE },
      })}
      <label className="field">
        <span className="field-label">Transport</span>
        <select
          value={draft.transport}
          onChange={(e) => onChange({ ...draft, transport: e.target.value as Draft['transport'] })}
        >
          <option value="stdio">a command (stdio)</option>
          <option value="http">a URL (Streamable HTTP)</option>
        </select>
      </label>
      {draft.transport === 'stdio' ? (
        <>
          {field('command', 'Command', {
            help: splitNote ?? 'e.g. npx; a whole command line pasted here goes into the command and its arguments',
            rules: { required: true },
            onPaste: pasteCommand,
          })}
          {field('args', 'Arguments', { multiline: true, help: 'one per line' })}
          {field('env', 'Environment', {
            multiline: true,
            help: `NAME=value, one per line; ${keyFieldNote(secretStore, `shown as ${SECRET_MASK}`)}`,
          })}
          {field('cwd', 'Working folder', { help: "empty: Flowbench's own" })}
        </>
      ) : (
        <>
          {field('url', 'URL', { rules: { required: true, type: 'url' } })}
          {field('headers', 'Headers', {
            multiline: true,
            help: `Name=value, one per line (e.g. Authorization=Bearer …); ${keyFieldNote(secretStore, `shown as ${SECRET_MASK}`)}`,
          })}
        </>
      )}
      {field('connectTimeoutMs', 'Connect time limit (ms)')}
      {field('toolTimeoutMs', 'Tool call time limit (ms)')}
      <div className="row-actions">
        <button type="submit" className="primary">
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
