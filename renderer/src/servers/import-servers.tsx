import { useState } from 'react';
import type { ServerImportResult } from '../../../core/formats/mcp-client-config';
import {
  CLIENT_LABELS,
  PROJECT_CONFIG_FILES,
  WRITABLE_CLIENTS,
  type WritableClient,
} from '../../../core/model/client-setup';
import { toFlowbenchError } from '../../../core/model/errors';
import { api } from '../api/client';

type Source = WritableClient | 'paste';

/** What importing does with each server, as the list says it before and after. */
const ACTION_WORDS: Record<ServerImportResult['servers'][number]['action'], [string, string]> = {
  add: ['will be added', 'added'],
  replace: ['will replace the one here', 'replaced'],
  keep: ['is here already and stays as it is', 'kept as it was'],
};

/**
 * The MCP servers a desktop client already has (Claude Desktop, Cursor, VS
 * Code…), brought in without typing them again: read from that client's
 * config on this machine, or from a config pasted here. Shown first, with
 * what cannot be taken and where it is in the file; nothing is written until
 * Import. `onImported` reloads the page's list.
 */
export function ImportServers({ onImported, onClose }: { onImported: () => Promise<unknown>; onClose: () => void }) {
  const [source, setSource] = useState<Source>('claude');
  const [text, setText] = useState('');
  const [project, setProject] = useState('');
  const [replace, setReplace] = useState(false);
  const [result, setResult] = useState<ServerImportResult | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);

  const run = async (dryRun: boolean) => {
    setMessage(undefined);
    try {
      const folder = projectFile ? project.trim() : '';
      const answer = await api.servers.import({
        ...(source === 'paste' ? { text } : { client: source, ...(folder ? { project: folder } : {}) }),
        replace,
        dryRun,
      });
      setResult(answer);
      if (!dryRun) await onImported();
    } catch (error) {
      setResult(undefined);
      setMessage(toFlowbenchError(error).message);
    }
  };
  // A change of what to read or how makes the last preview stale.
  const changed = () => setResult(undefined);
  // The config this client keeps in a project's folder, when it keeps one there.
  const projectFile = source === 'paste' ? undefined : PROJECT_CONFIG_FILES[source];
  const taking = result?.servers.filter((server) => server.action !== 'keep').length ?? 0;

  return (
    <form
      className="server-form"
      aria-label="Import servers"
      onSubmit={(e) => {
        e.preventDefault();
        void run(true);
      }}
    >
      <label className="field">
        <span className="field-label">From</span>
        <select
          value={source}
          onChange={(e) => {
            setSource(e.target.value as Source);
            changed();
          }}
        >
          {WRITABLE_CLIENTS.map((client) => (
            <option key={client} value={client}>
              {CLIENT_LABELS[client]}&apos;s config on this computer
            </option>
          ))}
          <option value="paste">a config pasted here</option>
        </select>
      </label>
      {projectFile && (
        <label className="field">
          <span className="field-label">Project folder</span>
          <input
            value={project}
            placeholder="~/code/my-app"
            onChange={(e) => {
              setProject(e.target.value);
              changed();
            }}
          />
          <small>
            Empty: the config in your home folder. A project&apos;s folder: the one{' '}
            {CLIENT_LABELS[source as WritableClient]} keeps there (<code>{projectFile}</code>).
          </small>
        </label>
      )}
      {source === 'paste' && (
        <label className="field">
          <span className="field-label">Config</span>
          <textarea
            value={text}
            rows={8}
            placeholder={'{ "mcpServers": { "files": { "command": "npx", "args": ["-y", "…"] } } }'}
            onChange={(e) => {
              setText(e.target.value);
              changed();
            }}
          />
          <small>
            JSON with &quot;mcpServers&quot; (Claude Desktop, Cursor, Windsurf) or &quot;servers&quot; (VS Code)
          </small>
        </label>
      )}
      <label>
        <input
          type="checkbox"
          checked={replace}
          onChange={(e) => {
            setReplace(e.target.checked);
            changed();
          }}
        />{' '}
        Replace servers here of the same name
      </label>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      {result && (
        <>
          <strong>Servers in this config</strong>
          <ul aria-label="Servers found">
            {result.servers.map((server) => (
              <li key={server.name}>
                <strong>{server.name}</strong> ({server.transport}: <code>{server.target}</code>){' '}
                {ACTION_WORDS[server.action][result.written ? 1 : 0]}
              </li>
            ))}
            {result.servers.length === 0 && <li>No server this config lists can be taken.</li>}
          </ul>
          {result.problems.length > 0 && (
            <>
              <strong>Not taken as they are</strong>
              <ul aria-label="Not taken as they are">
                {result.problems.map((problem) => (
                  <li
                    key={`${problem.where} ${problem.message}`}
                    className={problem.severity === 'warning' ? 'warning-text' : 'error'}
                  >
                    <code>{problem.where}</code>: {problem.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <div className="row-actions">
        <button type="submit">Preview</button>
        {result && !result.written && (
          <button type="button" className="primary" disabled={taking === 0} onClick={() => void run(false)}>
            Import {taking} server{taking === 1 ? '' : 's'}
          </button>
        )}
        <button type="button" onClick={onClose}>
          {result?.written ? 'Done' : 'Cancel'}
        </button>
      </div>
    </form>
  );
}
