import { resolve } from 'node:path';
import type { Command } from 'commander';
import { readClientConfig } from '../../host/client-config';
import { WRITABLE_CLIENTS, type WritableClient } from '../../model/client-setup';
import { serverTarget, type ServerListing } from '../../model/tools';
import { readImportFile } from '../../services/read-import-file';
import { columns } from '../columns';
import { printJson, printLine, type CliContext } from '../context';
import { usageError } from '../usage';

interface ImportOptions {
  from?: string;
  project?: string;
  replace?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** What `servers import` did (or would do) with one server. */
function importLine(action: 'add' | 'replace' | 'keep', written: boolean, name: string): string {
  if (action === 'keep') return `kept ${name} as it is (a server of that name is here; --replace takes the config's)`;
  if (action === 'add') return `${written ? 'added' : 'would add'} ${name}`;
  return `${written ? 'replaced' : 'would replace'} ${name}`;
}

const isWritableClient = (name: string): name is WritableClient =>
  (WRITABLE_CLIENTS as readonly string[]).includes(name);

interface AddOptions {
  url?: string;
  env: string[];
  header: string[];
  cwd?: string;
  connectTimeout?: string;
  toolTimeout?: string;
  json?: boolean;
}

/** `KEY=value` pairs into a record; a pair without `=` is bad usage. */
function pairs(list: readonly string[], what: string): Record<string, string> {
  return Object.fromEntries(
    list.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw usageError(`${what} must be NAME=value, got "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

const collect = (value: string, previous: string[]) => [...previous, value];
const milliseconds = (value: string | undefined, flag: string) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw usageError(`${flag} takes a whole number of milliseconds, got "${value}"`);
  return n;
};

function describe(listing: ServerListing): string[] {
  const { config, status } = listing;
  const target = serverTarget(config);
  const tools = status.tools ? `  ${status.tools.length} tool(s)` : '';
  const error = status.lastError ? `  last error: ${status.lastError.code}: ${status.lastError.message}` : '';
  return [config.name, status.transport ?? config.transport, status.state, `${target}${tools}${error}`];
}

export function registerServerCommands(program: Command, ctx: CliContext): void {
  const servers = program
    .command('servers')
    .description('MCP servers whose tools agents and MCP tool nodes call: list, add, remove, test');

  servers
    .command('list')
    .description('the servers you added (secrets masked) and how each stands')
    .option('--json', 'print JSON: { servers: [{ config, status: { name, state, lastError?, tools? } }] }')
    .action(async (options: { json?: boolean }) => {
      const list = ctx.services.servers.list();
      if (options.json) return printJson({ servers: list });
      if (list.length === 0)
        return printLine('no MCP servers yet: `flowbench servers add <name> -- <command> [args…]`');
      for (const line of await columns(list.map(describe))) printLine(line);
    });

  servers
    .command('add')
    .argument('<name>', 'a name for the server (letters, digits, _ . -)')
    .argument('[command...]', 'for stdio: the command and its arguments, after `--`')
    .description(
      'add or replace a server: `servers add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes`',
    )
    .option('--url <url>', 'a Streamable HTTP server instead of a command')
    .option(
      '--env <NAME=value>',
      'an environment variable for a stdio server (repeatable; stored like API keys)',
      collect,
      [],
    )
    .option('--header <Name=value>', 'a header for an HTTP server (repeatable; stored like API keys)', collect, [])
    .option('--cwd <folder>', "a stdio server's working folder")
    .option('--connect-timeout <ms>', 'time to start and answer initialize (default 20000)')
    .option('--tool-timeout <ms>', 'time one tool call may take (default 60000)')
    .option('--json', 'print JSON: { config } with secrets masked')
    .action((name: string, command: string[], options: AddOptions) => {
      if (options.url && command.length > 0) throw usageError('give either --url or a command, not both');
      if (!options.url && command.length === 0) {
        throw usageError('give the server command after `--` (stdio), or --url for a Streamable HTTP server');
      }
      const timeouts = {
        ...(options.connectTimeout
          ? { connectTimeoutMs: milliseconds(options.connectTimeout, '--connect-timeout') }
          : {}),
        ...(options.toolTimeout ? { toolTimeoutMs: milliseconds(options.toolTimeout, '--tool-timeout') } : {}),
      };
      const config = ctx.services.servers.set(
        options.url
          ? { name, transport: 'http', url: options.url, headers: pairs(options.header, '--header'), ...timeouts }
          : {
              name,
              transport: 'stdio',
              command: command[0],
              args: command.slice(1),
              env: pairs(options.env, '--env'),
              ...(options.cwd ? { cwd: options.cwd } : {}),
              ...timeouts,
            },
      );
      if (options.json) return printJson({ config });
      printLine(
        `saved MCP server ${config.name} (\`flowbench servers test ${config.name}\` connects and lists its tools)`,
      );
    });

  servers
    .command('import')
    .argument('[file]', "a client's config file (JSON with mcpServers or servers)")
    .description(
      "add the MCP servers a desktop client's config lists: `servers import --from cursor`, `servers import --from vscode --project .`, or `servers import ~/.cursor/mcp.json` (exit 1 when an entry cannot be taken; each is said with where it is)",
    )
    .option('--from <client>', `read the config of ${WRITABLE_CLIENTS.join(', ')} on this machine`)
    .option(
      '--project <folder>',
      "with --from: read that client's config for the project in <folder> (.cursor/mcp.json, .vscode/mcp.json, Claude Code's .mcp.json)",
    )
    .option('--replace', 'replace servers of the same name (kept as they are otherwise)')
    .option('--dry-run', 'say what would be added, and write nothing')
    .option('--json', 'print JSON: { servers: [{ name, where, transport, target, action }], problems, written }')
    .action(async (file: string | undefined, options: ImportOptions) => {
      if (options.project !== undefined && options.from === undefined) {
        throw usageError('--project goes with --from <client>: whose config in that project to read');
      }
      if ((file === undefined) === (options.from === undefined))
        throw usageError('give a config file or --from <client>, one of them');
      const client = options.from;
      if (client !== undefined && !isWritableClient(client)) {
        throw usageError(`--from takes one of ${WRITABLE_CLIENTS.join(', ')}, got "${client}"`);
      }
      const { text, source } = client
        ? readClientConfig(client, options.project === undefined ? {} : { project: resolve(options.project) })
        : { text: readImportFile(file as string), source: file as string };
      const result = await ctx.services.servers.importConfig(text, source, {
        replace: options.replace === true,
        dryRun: options.dryRun === true,
      });
      if (result.problems.some((problem) => problem.severity === 'error')) process.exitCode = 1;
      if (options.json) return printJson(result);
      for (const server of result.servers)
        printLine(`${importLine(server.action, result.written, server.name)} (${server.transport}: ${server.target})`);
      for (const problem of result.problems) printLine(`${problem.severity} ${problem.where}: ${problem.message}`);
      if (result.servers.length === 0) printLine(`no servers taken from ${source}`);
    });

  servers
    .command('remove')
    .argument('<name>')
    .description('remove a server')
    .action((name: string) => {
      ctx.services.servers.remove(name);
      printLine(`removed MCP server ${name}`);
    });

  servers
    .command('test')
    .argument('<name>')
    .description('connect to the server within its time limit and list its tools (exit 1 when it fails)')
    .option(
      '--json',
      'print JSON: { config, status: { state, lastError?, tools?: [{ name, description, inputSchema }] } }',
    )
    .action(async (name: string, options: { json?: boolean }) => {
      const listing = await ctx.services.servers.test(name);
      if (listing.status.state !== 'connected') process.exitCode = 1;
      if (options.json) return printJson(listing);
      if (listing.status.lastError && listing.status.state !== 'connected') {
        return printLine(`failed: ${listing.status.lastError.code}: ${listing.status.lastError.message}`);
      }
      const info = listing.status.serverInfo;
      printLine(
        `ok: ${name}${info ? ` (${info.name} ${info.version})` : ''} offers ${listing.status.tools?.length ?? 0} tool(s)${listing.status.transport === 'sse' ? ', over the older HTTP+SSE transport (it does not speak Streamable HTTP)' : ''}`,
      );
      const tools = (listing.status.tools ?? []).map((tool) => [
        tool.name,
        (tool.description ?? '').split('\n')[0]?.slice(0, 90) ?? '',
      ]);
      for (const line of await columns(tools)) printLine(`  ${line}`);
    });
}
