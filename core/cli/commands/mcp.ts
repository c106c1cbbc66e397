import type { Command } from 'commander';
import { DEFAULT_PORT } from '../../model/client-setup';
import { lib } from '../lib';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import {
  clientConfig,
  clientConfigPath,
  CLIENTS,
  endpointsFor,
  writeClientConfig,
  type Client,
  type WriteResult,
} from '../../host/client-config';
import { printJson, printLine, type CliContext } from '../context';
import { numberOption, usageError } from '../usage';
import { FlowbenchError } from '../../model/errors';

/** Best effort: the platform's opener; the URL is printed either way. */
function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`could not open a browser; open ${url} yourself\n`));
  child.unref();
}

/** `--port ""` (an unset shell variable) used to read as 0, any free port: numberOption refuses it. */
const parsePort = (text: string): number => numberOption('--port', text, { min: 0, max: 65535 });

/** Why `serve` could not listen on `port`, said as what to do; undefined for any other failure. */
function portError(error: unknown, port: number): FlowbenchError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new FlowbenchError(
      'PORT_UNAVAILABLE',
      `port ${port} is in use (another \`flowbench serve\` or the app?): stop it, or pick another with --port (0 takes any free one)`,
    );
  }
  if (code === 'EACCES') {
    return new FlowbenchError(
      'PORT_UNAVAILABLE',
      `port ${port} needs privileges this user does not have: pick one from 1024 up with --port (0 takes any free one)`,
    );
  }
  return undefined;
}

const WHERE: Record<Client, string> = {
  claude: 'Claude Desktop: Settings → Developer → Edit Config (claude_desktop_config.json)',
  'claude-code':
    'Claude Code: ~/.claude.json (user scope), or .mcp.json in a project; the HTTP entry needs `flowbench serve` running',
  windsurf: 'Windsurf: ~/.codeium/windsurf/mcp_config.json; the HTTP entry needs `flowbench serve` running',
  cursor:
    'Cursor: ~/.cursor/mcp.json (or .cursor/mcp.json in a project); the HTTP entry needs `flowbench serve` running',
  vscode:
    'VS Code: .vscode/mcp.json in a workspace (or "MCP: Open User Configuration"); the HTTP entry needs `flowbench serve` running',
  generic:
    'any MCP client: run the stdio command, or connect to the HTTP URL with the header while `flowbench serve` runs',
};

export function registerMcpCommands(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description('serve published, enabled flows as MCP tools over stdio (for desktop clients)')
    .action(async () => {
      ctx.isLongLived = true;
      // stdout carries JSON-RPC alone: a line a library prints with console.log, info or debug
      // would be one the client cannot read (the AI SDK's warnings were, see sdk-warnings.ts).
      for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error.bind(console);
      await lib.serveStdio(ctx.services, lib.FLOWBENCH_VERSION);
    });

  program
    .command('serve')
    .description('serve the editor in a browser, its API, and MCP over Streamable HTTP at /mcp, on 127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', String(DEFAULT_PORT))
    .option('--open', 'open the editor in the default browser')
    .option('--no-auth', 'accept MCP requests without the bearer token (only on a machine you alone use)')
    .action(async (options: { port: string; auth: boolean; open?: boolean }) => {
      ctx.isLongLived = true;
      const port = parsePort(options.port);
      const host = await lib
        .startHttpHost(ctx.services, { port, requireAuth: options.auth, version: lib.FLOWBENCH_VERSION })
        .catch((error: unknown) => {
          throw portError(error, port) ?? error;
        });
      // mcp-config reads it: the HTTP URL it prints names the port in use.
      lib.recordServe(ctx.services, host.port);
      printLine(`Flowbench is serving on ${host.url}`);
      printLine(`Editor: ${host.editorUrl}`);
      if (options.open) openInBrowser(host.editorUrl);
      printLine(`MCP endpoint: ${host.url}/mcp`);
      printLine(host.token ? `Authorization: Bearer ${host.token}` : 'Authentication is OFF (--no-auth)');
      printLine('Ctrl-C stops it.');
      await new Promise<void>((resolveStop) => {
        process.once('SIGINT', () => resolveStop());
        process.once('SIGTERM', () => resolveStop());
      });
      // Its runs still going (MCP calls', the editor's, flows_start's) end cancelled, saying why, and are stored
      // before the database closes: they kept the process waiting on a model. The connections close after, so
      // that a client waiting on a call (and the editor) is told why, not left to its own time limit.
      await ctx.services.runner.stop('`flowbench serve` was stopped while the run was going');
      await host.close();
    });

  program
    .command('mcp-config')
    .description('print the configuration snippet an MCP client needs')
    .option('--client <client>', CLIENTS.join('|'), 'generic')
    .option('--port <n>', 'the port of the HTTP URL (default: the one `flowbench serve` runs on, else 4747)')
    .option('--json', 'print only the JSON snippet (with --write: what was written)')
    .option('--write', "write it into the client's config file: other servers kept, a backup made first")
    .option('--file <path>', "with --write: this config file instead of the client's usual one")
    .action((options: { client: string; port?: string; json?: boolean; write?: boolean; file?: string }) => {
      if (!(CLIENTS as readonly string[]).includes(options.client)) {
        throw usageError(`--client must be one of ${CLIENTS.join(', ')}, got "${options.client}"`);
      }
      const client = options.client as Client;
      const services = ctx.services;
      const running = lib.runningServe(services);
      const port = options.port !== undefined ? parsePort(options.port) : (running?.port ?? DEFAULT_PORT);
      const reach = endpointsFor(resolve(services.database.path), port, lib.httpToken(services));
      if (options.file !== undefined && !options.write) throw usageError('--file goes with --write');
      if (options.write) {
        if (client === 'generic') throw usageError('--write needs a client (--client claude, cursor, …)');
        const written = writeClientConfig(client, resolve(options.file ?? clientConfigPath(client)), reach);
        if (options.json) return printJson(written);
        printLine(`wrote ${written.file}: ${describeWrite(written)}`);
        if (written.backup) printLine(`the file as it was: ${written.backup}`);
        return;
      }
      const snippet = clientConfig(client, reach);
      if (options.json) return printJson(snippet);
      printLine(`# ${WHERE[client]}`);
      printLine(
        options.port !== undefined
          ? `# the HTTP URL uses port ${port}, as asked`
          : running
            ? `# the HTTP URL uses port ${port}: \`flowbench serve\` is running there (pid ${running.pid})`
            : `# the HTTP URL uses port ${port}, \`flowbench serve\`'s default; none is running now (pass --port if you start it on another)`,
      );
      printLine(JSON.stringify(snippet, null, 2));
    });
}

const describeWrite = (written: WriteResult) =>
  [
    written.added.length > 0 ? `added ${written.added.join(', ')}` : '',
    written.updated.length > 0 ? `updated ${written.updated.join(', ')}` : '',
    `kept ${written.kept.length} other server${written.kept.length === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join('; ');
