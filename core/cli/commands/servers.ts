import type { Command } from 'commander';
import type { ServerListing } from '../../model/tools';
import { columns } from '../columns';
import { printJson, printLine, type CliContext } from '../context';
import { usageError } from '../usage';

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
  const target = config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
  const tools = status.tools ? `  ${status.tools.length} tool(s)` : '';
  const error = status.lastError ? `  last error: ${status.lastError.code}: ${status.lastError.message}` : '';
  return [config.name, config.transport, status.state, `${target}${tools}${error}`];
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
        `ok: ${name}${info ? ` (${info.name} ${info.version})` : ''} offers ${listing.status.tools?.length ?? 0} tool(s)`,
      );
      const tools = (listing.status.tools ?? []).map((tool) => [
        tool.name,
        (tool.description ?? '').split('\n')[0]?.slice(0, 90) ?? '',
      ]);
      for (const line of await columns(tools)) printLine(`  ${line}`);
    });
}
