import { existsSync, statSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { lib } from '../lib';
import { assertExportFormat, EXPORT_FORMATS } from '../../formats/export-formats';
import { errorsIn, formatProblem, hasErrors, type Problem } from '../../model/problems';
import type { FlowSummary } from '../../model/summaries';
import { columns } from '../columns';
import { printJson, printLine, type CliContext } from '../context';
import { fileErrorReason } from '../../model/file-errors';
import { FlowbenchError } from '../../model/errors';

interface JsonOption {
  json?: boolean;
}

/** Writes `--out`'s file; a folder, or a place this user may not write, is said (it was INTERNAL_ERROR). */
function writeOut(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new FlowbenchError('FILE_NOT_WRITABLE', `cannot write ${path}: ${fileErrorReason(error)}`, { path });
  }
}

/** What MCP clients get of a flow: a published version (and whether the draft moved on since), or nothing yet. */
export function publishedState(f: Pick<FlowSummary, 'publishedVersion' | 'hasUnpublishedChanges'>): string {
  if (f.publishedVersion === undefined) return 'never published';
  return `v${f.publishedVersion}${f.hasUnpublishedChanges ? ', draft changed' : ''}`;
}

const summaryCells = (f: FlowSummary) => [
  f.id,
  f.toolName,
  `${f.nodeCount} nodes`,
  f.enabled ? 'on' : 'off',
  publishedState(f),
  f.name,
];

export function registerFlowCommands(program: Command, ctx: CliContext): void {
  program
    .command('list')
    .description('list the flows in the database')
    .option(
      '--json',
      'print JSON: { flows: [{ id, name, description, toolName, enabled, publishedVersion?, hasUnpublishedChanges, nodeCount, edgeCount, createdAt, updatedAt }] }',
    )
    .action(async (options: JsonOption) => {
      const flows = ctx.services.flowService.list();
      if (options.json) return printJson({ flows });
      if (flows.length === 0) return printLine('no flows yet: `flowbench import <file>` or `flowbench examples`');
      for (const line of await columns(flows.map(summaryCells), [2])) printLine(line);
    });

  program
    .command('import')
    .argument('<file>', 'a flow file (format detected by content)')
    .description('import a flow file as a new flow')
    .option(
      '--json',
      'print JSON: { id, name, toolName, format, nodeCount, edgeCount, problems, warnings, publishedVersion?, laidOut? }',
    )
    .action(async (file: string, options: JsonOption) => {
      const report = await lib.importFlowText(ctx.services, lib.readImportFile(file), file);
      const { flow, problems } = report;
      const result = {
        id: flow.id,
        name: flow.name,
        toolName: flow.tool.name,
        format: report.format,
        nodeCount: flow.nodes.length,
        edgeCount: flow.edges.length,
        problems: errorsIn(problems),
        warnings: problems.filter((p) => p.severity === 'warning'),
        ...(report.publishedVersion !== undefined ? { publishedVersion: report.publishedVersion } : {}),
        ...(report.laidOut ? { laidOut: report.laidOut } : {}),
      };
      if (options.json) return printJson(result);
      printLine(
        `imported "${flow.name}" (${report.format}) as ${flow.id} (tool ${flow.tool.name}, ${flow.nodes.length} nodes)`,
      );
      if (report.laidOut) printLine(`laid out anew: ${report.laidOut}`);
      if (report.publishedVersion !== undefined) printLine(`published as version ${report.publishedVersion}`);
      if (result.problems.length > 0)
        printLine(`kept as a draft with ${result.problems.length} problem(s) to fix before publishing:`);
      for (const problem of problems) printLine(`  ${formatProblem(problem)}`);
    });

  program
    .command('export')
    .argument('<flow>', 'id, name or tool name')
    .description("write a flow in the native format, or another tool's")
    .option('--format <format>', EXPORT_FORMATS.join('|'), 'native')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (ref: string, options: { out?: string; format: string }) => {
      const format = assertExportFormat(options.format);
      const { text, leftOut } = await ctx.services.flowService.exportFile(ctx.flows.resolve(ref).id, format);
      if (options.out) writeOut(options.out, text);
      else process.stdout.write(text);
      // On stderr: stdout may be the file itself.
      if (leftOut.length > 0) process.stderr.write(`flowbench: not in the ${format} file: ${leftOut.join(', ')}\n`);
    });

  program
    .command('validate')
    .argument('<flow|file>', 'a flow in the database (id, name or tool name) or a flow file')
    .description('list every problem of a flow; exit 1 when any is an error')
    .option('--json', 'print JSON: { valid, problems: [{ code, severity, message, nodeId?, edgeId?, field? }] }')
    .action(async (ref: string, options: JsonOption) => {
      const isFile = existsSync(ref) && statSync(ref).isFile();
      let problems: Problem[];
      if (isFile) {
        const imported = await lib.readFlowFile(lib.readImportFile(ref), ref);
        // As `import` stores it: with what the file's own metadata recorded, and what this reading found.
        problems = lib.validateFlow(
          { id: 'file', ...lib.withImportProblems(imported.flow, imported.problems) },
          { catalogue: lib.nodeRegistry },
        ).problems;
      } else {
        const flows = ctx.flows;
        const id = flows.resolve(ref).id;
        problems = flows.problemsOf(flows.get(id));
      }
      const valid = !hasErrors(problems);
      if (options.json) printJson({ valid, problems });
      else {
        for (const problem of problems) printLine(formatProblem(problem));
        printLine(
          valid
            ? `valid${problems.length ? ` (${problems.length} warning(s))` : ''}`
            : `invalid: ${errorsIn(problems).length} error(s)`,
        );
      }
      if (!valid) process.exitCode = 1;
    });

  program
    .command('delete')
    .argument('<flow>', 'id, name or tool name')
    .description('delete a flow with its versions and runs')
    .option('--json', 'print JSON: { deleted: id }')
    .action((ref: string, options: JsonOption) => {
      const flows = ctx.flows;
      const flow = flows.resolve(ref);
      flows.delete(flow.id);
      if (options.json) return printJson({ deleted: flow.id });
      printLine(`deleted "${flow.name}" (${flow.id})`);
    });

  program
    .command('examples')
    .description('add the example flows to the database (skips tool names already used)')
    .option('--json', 'print JSON: { added: [{ id, toolName }], skipped: [file] }')
    .action((options: JsonOption) => {
      const { added, skipped } = lib.installExamples(ctx.flows);
      if (options.json) return printJson({ added: added.map((f) => ({ id: f.id, toolName: f.tool.name })), skipped });
      for (const flow of added) printLine(`added ${flow.tool.name} (${flow.id})`);
      if (skipped.length) printLine(`skipped (tool name in use): ${skipped.join(', ')}`);
    });
}
