import type { Command } from 'commander';
import { lib } from '../lib';
import type { FlowMemory } from '../../model/memory';
import { printJson, printLine, type CliContext } from '../context';
import { conversationOption, numberOption, usageError } from '../usage';

interface MemoryOptions {
  channel?: string;
  clear?: boolean;
  limit?: string;
  json?: boolean;
  conversation?: string;
}

function printChannels(memory: FlowMemory): void {
  if (memory.channels.length === 0) return printLine(`flow "${memory.flowName}" has no memory channels`);
  for (const view of memory.channels) {
    const retention = view.settings
      ? [
          view.settings.retentionVersions !== undefined ? `last ${view.settings.retentionVersions} versions` : '',
          view.settings.retentionDays !== undefined ? `${view.settings.retentionDays} days` : '',
        ]
          .filter(Boolean)
          .join(', ')
      : '';
    printLine(
      `${view.channel}  ${view.entries} entr${view.entries === 1 ? 'y' : 'ies'}${retention ? `  keeps: ${retention}` : ''}` +
        `${view.settings?.perConversation ? '  per conversation' : ''}` +
        `  read by: ${view.readers.join(', ') || '—'}  written by: ${view.writers.join(', ') || '—'}`,
    );
    for (const entry of view.recent) {
      printLine(
        `  ${entry.createdAt}  ${entry.nodeId}${entry.conversation ? `  (${entry.conversation})` : ''}  ${lib.stringifyValue(entry.payload).replace(/\s+/g, ' ').slice(0, 200)}`,
      );
    }
  }
}

export function registerMemoryCommand(program: Command, ctx: CliContext): void {
  program
    .command('memory')
    .argument('<flow>', 'flow id, tool name or name')
    .description(
      "a flow's memory channels: their entries (latest last), who reads and writes them; --clear empties them",
    )
    .option('--channel <name>', 'only this channel')
    .option('--limit <n>', 'entries shown per channel (default 20)')
    .option('--clear', 'remove the entries (of --channel, or of every channel)')
    .option('--conversation <name>', "with --clear: only this conversation's entries")
    .option(
      '--json',
      'print JSON: { flowId, flowName, channels: [{ channel, entries, settings?, readers, writers, recent }] }, or { removed }',
    )
    .action((ref: string, options: MemoryOptions) => {
      const limit =
        options.limit === undefined ? undefined : numberOption('--limit', options.limit, { min: 1, max: 1000 });
      const conversation = conversationOption(options.conversation);
      if (conversation !== undefined && !options.clear) throw usageError('--conversation goes with --clear');
      const memory = ctx.services.memory;
      if (options.clear) {
        const result = memory.clear(ref, options.channel, conversation);
        if (options.json) return printJson(result);
        return printLine(`removed ${result.removed} entr${result.removed === 1 ? 'y' : 'ies'}`);
      }
      const shown = memory.show(ref, {
        ...(options.channel !== undefined ? { channel: options.channel } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      if (options.json) return printJson(shown);
      printChannels(shown);
    });
}
