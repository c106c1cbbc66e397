import type { Command } from 'commander';
import { importNoteText } from '../../model/problems';
import { lib } from '../lib';
import { printJson, printLine, type CliContext } from '../context';
import { usageError } from '../usage';

/** A note an importer left on a flow (flow.metadata.importProblems), as far as this command reads it. */
type ImportNote = { nodeId?: unknown };

/**
 * `flowbench dismiss`: the Problems tab's Dismiss for the notes an import
 * left (an HTTP request node's URL to trust, a setting carried over as it
 * could be), so a flow imported from the command line can be reviewed there too.
 */
export function registerDismissCommand(program: Command, ctx: CliContext): void {
  program
    .command('dismiss')
    .argument('<flow>', 'id, name or tool name')
    .argument('[node]', 'the node whose import problems to dismiss (see `flowbench validate <flow>`)')
    .description("dismiss the problems an import left on a flow, once you have checked them: a node's, or --all")
    .option('--all', "dismiss every import problem of the flow, the flow's own included")
    .option('--json', 'print JSON: { dismissed: [message], problems: [...] } (the problems left)')
    .action((ref: string, nodeId: string | undefined, options: { all?: boolean; json?: boolean }) => {
      if ((nodeId === undefined) === (options.all !== true)) throw usageError('name a node, or give --all');
      const flows = ctx.flows;
      const flow = flows.get(flows.resolve(ref).id);
      const notes = (Array.isArray(flow.metadata.importProblems) ? flow.metadata.importProblems : []) as ImportNote[];
      const dismissed = notes.filter((note) => options.all || note?.nodeId === nodeId);
      if (dismissed.length === 0) {
        const where = [...new Set(notes.map((n) => (typeof n?.nodeId === 'string' ? `node ${n.nodeId}` : 'the flow')))];
        throw usageError(
          `${options.all ? `flow "${flow.name}"` : `node "${nodeId}" of flow "${flow.name}"`} has no import problem to dismiss` +
            (where.length > 0 ? ` (they are on: ${where.join(', ')})` : ''),
        );
      }
      const remaining = notes.filter((note) => !dismissed.includes(note));
      ctx.services.flowService.applyChanges(
        flow.id,
        lib.ChangeSetSchema.parse({ flow: { metadata: { ...flow.metadata, importProblems: remaining } } }),
      );
      const messages = dismissed.map((note) => importNoteText(note) ?? '');
      // As `validate` lists them: what keeps the flow from running or publishing now.
      const problems = flows.problemsOf(flows.get(flow.id));
      if (options.json) return printJson({ dismissed: messages, problems });
      for (const message of messages) printLine(`dismissed: ${message}`);
      const errors = problems.filter((p) => p.severity === 'error').length;
      printLine(
        errors === 0
          ? `flow "${flow.name}" has no errors left`
          : `${errors} error(s) left: flowbench validate ${flow.id}`,
      );
    });
}
