// First: it sets how zod parses before any schema is made (see zod-parsers.ts).
import './zod-parsers';
import { Command, CommanderError } from 'commander';
import { CliContext, reportError, type GlobalOptions } from './context';
import { registerFlowCommands } from './commands/flows';
import { registerMcpCommands } from './commands/mcp';
import { registerProviderCommands } from './commands/providers';
import { registerPublishCommands } from './commands/publish';
import { registerRunCommand } from './commands/run';
import { registerRunsCommands } from './commands/runs';
import { registerTestCommand } from './commands/test';
import { registerServerCommands } from './commands/servers';
import { registerAgentCommands } from './commands/agents';
import { registerMemoryCommand } from './commands/memory';
import { registerSecretCommands } from './commands/secrets';
import { registerDismissCommand } from './commands/dismiss';
import { handleStdoutClosed } from '../services/stdout-closed';

/** Builds the `flowbench` program; commands register themselves by area. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('flowbench')
    .description('Design, run and publish LLM flows locally.')
    .option('--db <path>', 'database file (default: FLOWBENCH_DB, then the app data folder)')
    .showHelpAfterError()
    .exitOverride()
    .hook('preAction', () => ctx.load());
  registerFlowCommands(program, ctx);
  registerDismissCommand(program, ctx);
  registerPublishCommands(program, ctx);
  registerRunCommand(program, ctx);
  registerRunsCommands(program, ctx);
  registerTestCommand(program, ctx);
  registerProviderCommands(program, ctx);
  registerServerCommands(program, ctx);
  registerSecretCommands(program, ctx);
  registerAgentCommands(program, ctx);
  registerMemoryCommand(program, ctx);
  registerMcpCommands(program, ctx);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const holder: { program?: Command } = {};
  const ctx = new CliContext(() => holder.program?.opts<GlobalOptions>() ?? {});
  const program = buildProgram(ctx);
  holder.program = program;
  const isJson = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successful exits; anything else is bad usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    return reportError(error, isJson);
  } finally {
    await ctx.close();
  }
}

// `flowbench runs list | head`: once the reader has gone, there is nobody to tell anything (but see whenStdoutClosed).
handleStdoutClosed();
// Not a top-level await: the CLI is built as one CommonJS script, whose compiled code Node can keep (bin/run-built.mjs).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
