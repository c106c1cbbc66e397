import type { Command } from 'commander';
import { RUN_REPORT_FORMATS } from '../../model/run-report';
import { lib } from '../lib';
import { FlowbenchError } from '../../model/errors';
import { formatCost } from '../../model/pricing';
import {
  RUN_STATUSES,
  RUN_TRIGGERS,
  type RunRecord,
  type RunStatus,
  type RunTrigger,
  type TokenUsage,
} from '../../model/run';
import { columns } from '../columns';
import { numberOption, usageError } from '../usage';
import { printJson, printLine, type CliContext } from '../context';
import { formatOutput } from './run';

const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(2)} s`);
/** "10→5 tokens, $0.0012": what a run or step used, as far as it is known. */
const usageText = (usage: TokenUsage | undefined) =>
  usage
    ? `${usage.inputTokens ?? '?'}→${usage.outputTokens ?? '?'} tokens${usage.cost !== undefined ? `, ${formatCost(usage.cost)}` : ''}`
    : '';
const TRIGGERS: readonly RunTrigger[] = RUN_TRIGGERS;
const STATUSES: readonly RunStatus[] = RUN_STATUSES;

async function showRun(run: RunRecord): Promise<void> {
  printLine(
    `run ${run.id}  ${run.status}  flow "${run.flowName}"  ${run.trigger}${run.client ? ` (${run.client})` : ''}`,
  );
  printLine(`started ${run.startedAt}  took ${seconds(run.durationMs)}${run.usage ? `  ${usageText(run.usage)}` : ''}`);
  if (run.reuse) {
    printLine(
      `run from ${run.reuse.fromNodeId}, reusing ${run.reuse.nodeIds.join(', ') || 'nothing'} from run ${run.reuse.runId}`,
    );
  }
  if (run.toNodeId) printLine(`run to ${run.toNodeId}: it and the nodes it needs ran, nothing after it`);
  if (run.conversation) printLine(`conversation ${run.conversation}`);
  printLine(`inputs ${JSON.stringify(run.inputs)}`);
  if (run.error)
    printLine(`error [${run.error.code}]${run.error.nodeId ? ` at ${run.error.nodeId}` : ''}: ${run.error.message}`);
  printLine();
  // Node ids are as long as their authors made them: their column is as wide as the longest (see columns).
  const lines = await columns(
    run.steps.map((step) => [
      step.nodeId,
      seconds(step.durationMs),
      [step.attempts > 1 ? `${step.attempts} attempts` : '', step.usage ? usageText(step.usage) : '']
        .filter(Boolean)
        .join('  '),
    ]),
    [1],
  );
  run.steps.forEach((step, i) => {
    printLine(`  ${step.status.padEnd(10)} ${lines[i]}`);
    if (step.error) printLine(`             ${step.error.code}: ${step.error.message}`);
    // The node did not run: said, as `flowbench run` says it live.
    if (step.passedOver) printLine('             passed over: deactivated');
    if (step.pinned) printLine('             pinned output');
    // What the provider did not honour: said here as on stderr when the run was live.
    for (const warning of step.warnings ?? []) printLine(`             warning: ${warning}`);
  });
  const output = formatOutput(run.output);
  if (output) {
    printLine();
    printLine(output);
  }
}

interface ListOptions {
  flow?: string;
  trigger?: string;
  status?: string;
  limit: string;
  offset: string;
  json?: boolean;
}

export function registerRunsCommands(program: Command, ctx: CliContext): void {
  const runs = program.command('runs').description('stored runs: `runs [list]`, `runs show <id>`');

  runs
    .command('list', { isDefault: true })
    .description('list stored runs, newest first')
    .option('--flow <flow>', 'only runs of this flow')
    .option('--trigger <trigger>', `only runs started from: ${TRIGGERS.join(', ')}`)
    .option('--status <status>', `only runs that ended so: ${STATUSES.join(', ')}`)
    .option('--limit <n>', 'how many', '20')
    .option('--offset <n>', 'skip the newest n (paging)', '0')
    .option(
      '--json',
      'print JSON: { runs: [{ id, flowId, flowName, trigger, status, error?, startedAt, finishedAt?, durationMs? }] }',
    )
    .action((options: ListOptions) => {
      const { flows, runs: repository } = ctx.services;
      const flowId = options.flow ? flows.resolve(options.flow).id : undefined;
      const trigger = options.trigger as RunTrigger | undefined;
      const status = options.status as RunStatus | undefined;
      if (trigger && !TRIGGERS.includes(trigger)) throw usageError(`--trigger takes ${TRIGGERS.join(', ')}`);
      if (status && !STATUSES.includes(status)) throw usageError(`--status takes ${STATUSES.join(', ')}`);
      const list = repository.list({
        ...(flowId ? { flowId } : {}),
        ...(trigger ? { trigger } : {}),
        ...(status ? { status } : {}),
        limit: numberOption('--limit', options.limit, { min: 1, max: 100_000 }),
        offset: numberOption('--offset', options.offset, { min: 0, max: 1_000_000_000 }),
      });
      if (options.json) return printJson({ runs: list });
      if (list.length === 0) return printLine('no runs yet: `flowbench run <flow>`');
      for (const run of list) {
        printLine(
          `${run.id}  ${run.status.padEnd(11)} ${run.startedAt}  ${seconds(run.durationMs).padStart(8)}  ${run.trigger.padEnd(6)} ${run.flowName}${run.usage?.cost !== undefined ? `  ${formatCost(run.usage.cost)}` : ''}`,
        );
      }
    });

  runs
    .command('delete')
    .argument('<ids...>', 'run ids')
    .description('delete stored runs with their steps')
    .option('--json', 'print JSON: { removed }')
    .action((ids: string[], options: { json?: boolean }) => {
      const removed = ctx.services.runs.delete(ids.map((id) => ctx.services.runs.get(id).id));
      if (options.json) return printJson({ removed });
      printLine(`deleted ${removed} run${removed === 1 ? '' : 's'}`);
    });

  runs
    .command('show')
    .argument(
      '<id>',
      'a run id, its short form (its last 8 characters, as the editor shows it) or a unique start of 6+ characters',
    )
    .description('one run with every step')
    .option(
      '--json',
      'print the run record: { id, flowId, flowName, trigger, status, inputs, output, error, startedAt, finishedAt, durationMs, steps: [...] }',
    )
    .option('--format <format>', `${RUN_REPORT_FORMATS.join('|')}: the summary or Markdown of seed 003's runs`, 'text')
    .option('--step <node>', "only this node's output, whole (seed 003's get_output_data); its last pass in a loop")
    .option('--iteration <n>', 'with --step: that pass of a loop')
    .action(async (id: string, options: { json?: boolean; format: string; step?: string; iteration?: string }) => {
      if (!(RUN_REPORT_FORMATS as readonly string[]).includes(options.format)) {
        throw usageError(`--format must be one of ${RUN_REPORT_FORMATS.join(', ')}, got "${options.format}"`);
      }
      if (options.iteration !== undefined && options.step === undefined) throw usageError('--iteration needs --step');
      const run = ctx.services.runs.get(id);
      if (options.step !== undefined) return printStepOutput(run, options.step, options.iteration, options.json);
      if (options.json) printJson(run);
      else if (options.format === 'markdown') process.stdout.write(lib.runMarkdown(run));
      else if (options.format === 'summary') printLine(lib.runSummary(run));
      else await showRun(run);
    });
}

/** One step's whole output: text as it is, anything else as JSON; NODE_NOT_FOUND when the run has no such step. */
function printStepOutput(
  run: RunRecord,
  nodeId: string,
  iteration: string | undefined,
  json: boolean | undefined,
): void {
  const pass = iteration === undefined ? undefined : numberOption('--iteration', iteration, { min: 1 });
  const step = run.steps.findLast((s) => s.nodeId === nodeId && (pass === undefined || (s.iteration ?? 1) === pass));
  if (!step) {
    throw new FlowbenchError(
      'NODE_NOT_FOUND',
      `run ${run.id} has no step of node "${nodeId}"${pass !== undefined ? ` in pass ${pass}` : ''} (its steps: ${[...new Set(run.steps.map((s) => s.nodeId))].join(', ')})`,
      { nodeId },
    );
  }
  if (json)
    return printJson({
      nodeId,
      ...(step.iteration ? { iteration: step.iteration } : {}),
      status: step.status,
      output: step.output ?? null,
    });
  printLine(typeof step.output === 'string' ? step.output : JSON.stringify(step.output ?? null, null, 2));
}
