import { FlowbenchError } from '../model/errors';
import { isRecord } from '../model/is-record';
import { McpServerConfigSchema, type McpServerConfig } from '../model/tools';
import { parseJsoncText } from './parse-json';

/** Something about one entry of a client's config Flowbench cannot take as it is, with where it is. */
export interface ServerImportProblem {
  /** Where in the file: `mcpServers.github.env.TOKEN`. */
  where: string;
  message: string;
  /** `error`: the server is not imported; `warning`: it is, without what is named. */
  severity: 'error' | 'warning';
}

export interface ServersFromConfig {
  /** Each server Flowbench can take, with where its entry is. */
  servers: { config: McpServerConfig; where: string }[];
  problems: ServerImportProblem[];
}

/** What importing a client's servers did, or would do (a preview writes nothing). */
export interface ServerImportResult {
  servers: {
    name: string;
    where: string;
    transport: McpServerConfig['transport'];
    /** The command and its arguments, or the URL. */
    target: string;
    /** `keep`: a server of that name is there already and stays as it is (not asked to replace it). */
    action: 'add' | 'replace' | 'keep';
  }[];
  problems: ServerImportProblem[];
  /** False for a preview: nothing was written. */
  written: boolean;
}

/** The settings of an entry Flowbench takes (the rest is named in a warning). */
const STDIO_FIELDS = new Set(['command', 'args', 'env', 'cwd', 'type', 'transport']);
const HTTP_FIELDS = new Set(['url', 'headers', 'type', 'transport']);
/**
 * What clients write for a server at a URL: Streamable HTTP, or `sse`, the
 * older HTTP+SSE transport, which Flowbench falls back to at the same URL
 * when the server refuses Streamable HTTP (tools/mcp-connections.ts).
 */
const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'sse']);

/**
 * The MCP servers of a desktop client's config, as Flowbench keeps them:
 * `mcpServers` (Claude Desktop, Claude Code, Cursor, Windsurf; Claude Code's
 * per-project ones under `projects` too), `servers` (VS Code's `mcp.json`),
 * `mcp.servers` (VS Code's settings), or the map of servers alone. A name
 * met twice (two projects) is taken once, the second said. Each entry is checked as a server added by hand is. What
 * Flowbench cannot honour is a problem with where it is: an entry it cannot
 * take (a transport it does not know, a variable such as `${input:token}` it
 * cannot fill in, a name it does not allow) is left out with an error; a
 * setting it has no use for (`autoApprove`, `disabled`) is left out of a
 * server it takes, with a warning. Flowbench's own entries are left out:
 * its flows are already the `flowbench` tools.
 */
export function serversFromClientConfig(text: string, source: string): ServersFromConfig {
  const parsed = parseJsoncText(text, source);
  const groups = serverGroups(parsed);
  if (groups.length === 0) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `${source} has no MCP servers: expected "mcpServers" (Claude Desktop, Cursor, Claude Code, Windsurf), "servers" (VS Code) or a map of servers by name`,
      { source },
    );
  }
  const servers: ServersFromConfig['servers'] = [];
  const problems: ServerImportProblem[] = [];
  for (const group of groups) {
    for (const [name, entry] of Object.entries(group.servers)) {
      const where = group.path ? `${group.path}.${name}` : name;
      const first = servers.find((server) => server.config.name === name);
      if (first) {
        problems.push({
          where,
          message: `a server named "${name}" is also at ${first.where}, which is taken`,
          severity: 'error',
        });
        continue;
      }
      const config = serverFrom(name, entry, where, problems);
      if (config) servers.push({ config, where });
    }
  }
  return { servers, problems };
}

/** The maps of servers the file keeps, each with the path to it. */
function serverGroups(value: unknown): { servers: Record<string, unknown>; path: string }[] {
  if (!isRecord(value)) return [];
  if (isRecord(value.servers)) return [{ servers: value.servers, path: 'servers' }];
  if (isRecord(value.mcp) && isRecord(value.mcp.servers)) return [{ servers: value.mcp.servers, path: 'mcp.servers' }];
  const groups = isRecord(value.mcpServers) ? [{ servers: value.mcpServers, path: 'mcpServers' }] : [];
  // Claude Code keeps the servers added for one project (`claude mcp add`'s default scope) under it.
  if (isRecord(value.projects)) {
    for (const [folder, project] of Object.entries(value.projects)) {
      if (isRecord(project) && isRecord(project.mcpServers) && Object.keys(project.mcpServers).length > 0) {
        groups.push({ servers: project.mcpServers, path: `projects[${JSON.stringify(folder)}].mcpServers` });
      }
    }
  }
  if (groups.length > 0) return groups;
  // A map of servers alone, as pasted from a README: every value names a command or a URL.
  const entries = Object.values(value);
  const allServers = entries.length > 0 && entries.every((e) => isRecord(e) && ('command' in e || 'url' in e));
  return allServers ? [{ servers: value, path: '' }] : [];
}

/** One entry as Flowbench keeps it, or undefined with an error said. */
function serverFrom(
  name: string,
  entry: unknown,
  where: string,
  problems: ServerImportProblem[],
): McpServerConfig | undefined {
  const refuse = (message: string, at = where): undefined => {
    problems.push({ where: at, message, severity: 'error' });
    return undefined;
  };
  if (!isRecord(entry)) return refuse('not a server: an object with a command or a url');
  if (isFlowbench(name, entry)) {
    problems.push({
      where,
      message: 'is Flowbench itself: its published flows are already the "flowbench" tools',
      severity: 'warning',
    });
    return undefined;
  }
  const type = entry.type ?? entry.transport;
  if (type === undefined && entry.command === undefined && entry.url === undefined) {
    return refuse('has neither a command (stdio) nor a url (Streamable HTTP)');
  }
  const http = typeof type === 'string' ? HTTP_TYPES.has(type) : type === undefined && entry.url !== undefined;
  if (type !== undefined && type !== 'stdio' && !http) {
    return refuse(`has the transport ${JSON.stringify(type)}, which Flowbench does not know`);
  }
  const variable = firstVariable(entry, where);
  if (variable) {
    return refuse(
      `uses the variable ${variable.text}, which Flowbench cannot fill in; add the server by hand with its value`,
      variable.where,
    );
  }
  const known = http ? HTTP_FIELDS : STDIO_FIELDS;
  for (const key of Object.keys(entry)) {
    if (known.has(key)) continue;
    problems.push({ where: `${where}.${key}`, message: 'not a setting Flowbench has; left out', severity: 'warning' });
  }
  const candidate = http
    ? { name, transport: 'http', url: entry.url, headers: entry.headers }
    : { name, transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd };
  const checked = McpServerConfigSchema.safeParse(candidate);
  if (checked.success) return checked.data;
  for (const issue of checked.error.issues) {
    const path = issue.path.filter((key) => key !== 'transport');
    refuse(issue.message, path[0] === 'name' ? where : [where, ...path.map(String)].join('.'));
  }
  return undefined;
}

/** Flowbench's own entries, as `flowbench mcp install` and the Connect screen write them. */
function isFlowbench(name: string, entry: Record<string, unknown>): boolean {
  if (name === 'flowbench' || name === 'flowbench-http') return true;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return entry.command === 'flowbench' || args.some((arg) => /(^|[\\/])bin[\\/]flowbench$/.test(arg));
}

/** The first `${…}` variable in an entry's texts (VS Code's `${input:token}`, `${env:HOME}`), with where. */
function firstVariable(value: unknown, where: string): { text: string; where: string } | undefined {
  if (typeof value === 'string') {
    const match = /\$\{[^}]+\}/.exec(value);
    return match ? { text: match[0], where } : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstVariable(item, `${where}[${i}]`);
      if (found) return found;
    }
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = firstVariable(item, `${where}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
