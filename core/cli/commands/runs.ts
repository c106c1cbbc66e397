import type { Command } from 'commander';
import type { RunRecord } from '../../model/run';
import { printJson, printLine, type CliContext } from '../context';
import { formatOutput } from './run';

const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(2)} s`);

function showRun(run: RunRecord): void {
  printLine(
    `run ${run.id}  ${run.status}  flow "${run.flowName}"  ${run.trigger}${run.client ? ` (${run.client})` : ''}`,
  );
  printLine(`started ${run.startedAt}  took ${seconds(run.durationMs)}`);
  printLine(`inputs ${JSON.stringify(run.inputs)}`);
  if (run.error)
    printLine(`error [${run.error.code}]${run.error.nodeId ? ` at ${run.error.nodeId}` : ''}: ${run.error.message}`);
  printLine();
  for (const step of run.steps) {
    const tokens = step.usage ? `  ${step.usage.inputTokens ?? '?'}→${step.usage.outputTokens ?? '?'} tokens` : '';
    const attempts = step.attempts > 1 ? `  ${step.attempts} attempts` : '';
    printLine(
      `  ${step.status.padEnd(10)} ${step.nodeId.padEnd(24)} ${seconds(step.durationMs).padStart(8)}${attempts}${tokens}`,
    );
    if (step.error) printLine(`             ${step.error.code}: ${step.error.message}`);
  }
  const output = formatOutput(run.output);
  if (output) {
    printLine();
    printLine(output);
  }
}

export function registerRunsCommands(program: Command, ctx: CliContext): void {
  const runs = program.command('runs').description('stored runs: `runs [list]`, `runs show <id>`');

  runs
    .command('list', { isDefault: true })
    .description('list stored runs, newest first')
    .option('--flow <flow>', 'only runs of this flow')
    .option('--limit <n>', 'how many', '20')
    .option(
      '--json',
      'print JSON: { runs: [{ id, flowId, flowName, trigger, status, error?, startedAt, finishedAt?, durationMs? }] }',
    )
    .action((options: { flow?: string; limit: string; json?: boolean }) => {
      const { flows, runs: repository } = ctx.services;
      const flowId = options.flow ? flows.resolve(options.flow).id : undefined;
      const list = repository.list({ ...(flowId ? { flowId } : {}), limit: Math.max(1, Number(options.limit) || 20) });
      if (options.json) return printJson({ runs: list });
      if (list.length === 0) return printLine('no runs yet: `flowbench run <flow>`');
      for (const run of list) {
        printLine(
          `${run.id}  ${run.status.padEnd(11)} ${run.startedAt}  ${seconds(run.durationMs).padStart(8)}  ${run.trigger.padEnd(6)} ${run.flowName}`,
        );
      }
    });

  runs
    .command('show')
    .argument('<id>', 'a run id (or a unique prefix of 6+ characters)')
    .description('one run with every step')
    .option(
      '--json',
      'print the run record: { id, flowId, flowName, trigger, status, inputs, output, error, startedAt, finishedAt, durationMs, steps: [...] }',
    )
    .action((id: string, options: { json?: boolean }) => {
      const run = ctx.services.runs.get(id);
      if (options.json) printJson(run);
      else showRun(run);
    });
}
