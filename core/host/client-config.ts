import { copyFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import {
  CLIENT_LABELS,
  PROJECT_CONFIG_FILES,
  WRITABLE_CLIENTS,
  type Client,
  type ClientSetup,
  type Endpoints,
  type WriteResult,
} from '../model/client-setup';
import { FlowbenchError } from '../model/errors';
import { isRecord } from '../model/is-record';
import { makeFolders } from '../services/make-folders';
import { readImportFile } from '../services/read-import-file';
import { BIN_PATH } from './bin-path';
import { fileErrorReason } from '../model/file-errors';

/**
 * What each desktop MCP client needs to reach Flowbench, and writing it into
 * that client's own config file: merged with the servers already there, the
 * file backed up first, a file that is not plain JSON refused untouched.
 */

export { CLIENTS, type Client, type WriteResult } from '../model/client-setup';

export type { Endpoints } from '../model/client-setup';

/** The servers Flowbench adds, by name, and the key of the object that holds a client's servers. */
function entries(client: Exclude<Client, 'generic'>, { stdio, http }: Endpoints) {
  switch (client) {
    case 'claude':
      // Claude Desktop starts stdio servers only.
      return { key: 'mcpServers', servers: { flowbench: stdio } };
    case 'claude-code':
      return {
        key: 'mcpServers',
        servers: { flowbench: { type: 'stdio', ...stdio }, 'flowbench-http': { type: 'http', ...http } },
      };
    case 'cursor':
      return { key: 'mcpServers', servers: { flowbench: stdio, 'flowbench-http': http } };
    case 'vscode':
      return {
        key: 'servers',
        servers: { flowbench: { type: 'stdio', ...stdio }, 'flowbench-http': { type: 'http', ...http } },
      };
    case 'windsurf':
      return {
        key: 'mcpServers',
        servers: { flowbench: stdio, 'flowbench-http': { serverUrl: http.url, headers: http.headers } },
      };
  }
}

/**
 * The endpoints a client reaches Flowbench at, with absolute paths. `node` is
 * what runs the stdio entry: this Node, or the desktop app's own binary run as
 * Node (its env says so), which needs no window and no other install.
 */
export function endpointsFor(
  db: string,
  port: number,
  token: string,
  node: { command: string; env?: Record<string, string> } = { command: process.execPath },
): Endpoints {
  return {
    stdio: { command: node.command, args: [BIN_PATH, 'mcp', '--db', db], ...(node.env ? { env: node.env } : {}) },
    http: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: `Bearer ${token}` } },
  };
}

/** Every client with a config file: what the Connect screen shows. */
export function clientSetups(reach: Endpoints): ClientSetup[] {
  return WRITABLE_CLIENTS.map((client) => {
    const file = clientConfigPath(client);
    return {
      client,
      label: CLIENT_LABELS[client],
      file,
      fileExists: existsSync(file),
      snippet: clientConfig(client, reach),
    };
  });
}

/** The snippet a person pastes into the client's config. */
export function clientConfig(client: Client, endpoints: Endpoints): Record<string, unknown> {
  if (client === 'generic') return { stdio: endpoints.stdio, http: endpoints.http };
  const { key, servers } = entries(client, endpoints);
  return { [key]: servers };
}

/** Where each client keeps its user-level config on this platform. */
export function clientConfigPath(
  client: Exclude<Client, 'generic'>,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  const appData =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  switch (client) {
    case 'claude':
      return join(appData, 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return join(home, '.claude.json');
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'vscode':
      return join(appData, 'Code', 'User', 'mcp.json');
    case 'windsurf':
      return join(home, '.codeium', 'windsurf', 'mcp_config.json');
  }
}

/**
 * A project folder as the editor gives it: a full path, or one under the
 * home folder (`~/code/app`). A relative path would be read from wherever
 * Flowbench happened to start: refused, saying so.
 */
export function projectFolder(path: string, home = homedir()): string {
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(1));
  if (!isAbsolute(path)) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `give the project folder's full path (or one starting with ~/), not "${path}"`,
      { project: path },
    );
  }
  return path;
}

/**
 * The config a client keeps for the project in `project`
 * (PROJECT_CONFIG_FILES); a VALIDATION_ERROR for one that keeps none.
 */
export function projectConfigPath(client: Exclude<Client, 'generic'>, project: string): string {
  const file = PROJECT_CONFIG_FILES[client];
  if (file === undefined) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `${CLIENT_LABELS[client]} keeps no config per project; import its own config without a project folder`,
      { client },
    );
  }
  return join(project, ...file.split('/'));
}

const invalid = (file: string, why: string) =>
  new FlowbenchError('CLIENT_CONFIG_INVALID', `${file} was left as it is: ${why}`, { file });

/**
 * Adds Flowbench's servers to a client's config file. Everything else in the
 * file stays; Flowbench's own entries (`flowbench`, `flowbench-http`) are
 * replaced. The file as it was is copied to `<file>.<time>.bak` first, and the
 * new one is written beside it and renamed over it, so a crash leaves one or
 * the other whole. A file that is not a JSON object (comments included) is refused.
 */
export function writeClientConfig(
  client: Exclude<Client, 'generic'>,
  file: string,
  endpoints: Endpoints,
  now = Date.now(),
): WriteResult {
  const exists = existsSync(file);
  let doc: Record<string, unknown> = {};
  if (exists) {
    // Read as an imported file is: a folder, a file this user may not read, each said (they were INTERNAL_ERROR).
    const text = readImportFile(file);
    if (text.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw invalid(file, `it is not plain JSON (${(error as Error).message}); fix it or add the snippet by hand`);
      }
      if (!isRecord(parsed)) throw invalid(file, 'its top level is not a JSON object');
      doc = parsed;
    }
  }
  const { key, servers } = entries(client, endpoints);
  const existing = doc[key] ?? {};
  if (!isRecord(existing)) throw invalid(file, `its "${key}" is not an object of servers`);
  const names = Object.keys(servers);
  const result: WriteResult = {
    file,
    added: names.filter((n) => !(n in existing)),
    updated: names.filter((n) => n in existing),
    kept: Object.keys(existing).filter((n) => !names.includes(n)),
  };
  const next = { ...doc, [key]: { ...existing, ...servers } };
  try {
    makeFolders(dirname(file));
    if (exists) {
      result.backup = `${file}.${new Date(now).toISOString().replace(/[:.]/g, '-')}.bak`;
      copyFileSync(file, result.backup);
    }
    const temporary = `${file}.flowbench-${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    // Written through a temporary file renamed over it: a write that fails leaves the file as it was.
    throw invalid(file, `it cannot be written (${fileErrorReason(error)})`);
  }
  return result;
}

/**
 * A client's config file as text, to import the MCP servers it lists
 * (serversFromClientConfig); a file that is not there is FILE_NOT_FOUND,
 * saying where it was looked for, and one over the import size limit FILE_TOO_LARGE.
 */
export function readClientConfig(
  client: Exclude<Client, 'generic'>,
  {
    project,
    file = project === undefined ? clientConfigPath(client) : projectConfigPath(client, project),
  }: {
    /** The folder of a project whose own config to read (projectConfigPath). */
    project?: string;
    file?: string;
  } = {},
): { text: string; source: string } {
  if (!existsSync(file)) {
    const config = project === undefined ? 'config' : `config for the project ${project}`;
    throw new FlowbenchError(
      'FILE_NOT_FOUND',
      `${CLIENT_LABELS[client]} has no ${config} at ${file}: no servers to import from it`,
      { file },
    );
  }
  // Read as any imported file is: over the import size limit it is FILE_TOO_LARGE, not read whole.
  return { text: readImportFile(file), source: file };
}
