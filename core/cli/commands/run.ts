import type { Command } from 'commander';
import { lib } from '../lib';
import { FlowbenchError } from '../../model/errors';
import type { Flow } from '../../model/flow';
import { shortRunId, type RunEvent, type RunOutput, type RunRecord } from '../../model/run';
import { stringifyValue } from '../../model/template';
import { printJson, printLine, type CliContext } from '../context';
import { cancelOnStopSignals } from '../stop-signals';
import { conversationOption, usageError } from '../usage';

interface RunCommandOptions {
  input: string[];
  inputs?: string;
  json?: boolean;
  timeout?: string;
  quiet?: boolean;
  from?: string;
  reuse?: string;
  to?: string;
  conversation?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The longest a Node timer waits (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Merges `--inputs file.json` and `--input k=v` (the latter wins), typed by the flow's parameters. */
export async function readRunInputs(
  flow: Flow,
  options: Pick<RunCommandOptions, 'input' | 'inputs'>,
): Promise<Record<string, unknown>> {
  let inputs: Record<string, unknown> = {};
  if (options.inputs) {
    const value = (await lib.loadJsonParser()).parseJsonText(lib.readImportFile(options.inputs), options.inputs);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw usageError(`${options.inputs} must hold a JSON object of inputs, like {"topic": "otters"}`);
    }
    inputs = { ...(value as Record<string, unknown>) };
  }
  for (const pair of options.input) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError(`--input takes name=value, got "${pair}"`);
    const name = pair.slice(0, at);
    inputs[name] = lib.coerceTextInput(
      flow.parameters.find((p) => p.name === name),
      pair.slice(at + 1),
    );
  }
  return inputs;
}

/** The run's result as a person reads it: return values as text, structured output as JSON. */
export function formatOutput(output: RunOutput | undefined): string {
  if (!output) return '';
  if (output.kind === 'return_values') return output.values.map((v) => v.text).join('\n\n');
  return JSON.stringify(output.data, null, 2);
}

/** What a node's (last) step gave, as text: nothing when it gave nothing. */
function stepOutputText(record: RunRecord, nodeId: string): string {
  const output = record.steps.findLast((s) => s.nodeId === nodeId)?.output;
  return output === undefined ? '' : stringifyValue(output);
}

function progressLine(event: RunEvent, types: ReadonlyMap<string, string>): string | undefined {
  switch (event.type) {
    case 'node.started':
      return `▶ ${event.nodeId} (${types.get(event.nodeId) ?? '?'})${event.attempt > 1 ? ` attempt ${event.attempt}` : ''}`;
    case 'node.finished':
      if (event.reusedFrom) return `↺ ${event.nodeId}  reused from run ${shortRunId(event.reusedFrom)}`;
      if (event.passedOver) return `⤳ ${event.nodeId}  passed over: deactivated`;
      if (event.pinned) return `⊙ ${event.nodeId}  pinned output`;
      return `✓ ${event.nodeId}  ${(event.durationMs / 1000).toFixed(2)} s`;
    case 'node.failed':
      return `✗ ${event.nodeId}  ${event.error.code}: ${event.error.message}${event.willRetry ? ' (retrying)' : event.isHandled ? ' (error branch)' : ''}`;
    case 'node.skipped':
      return `– ${event.nodeId} skipped`;
    case 'node.cancelled':
      return `■ ${event.nodeId} cancelled`;
    default:
      return undefined;
  }
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .argument('<flow>', 'id, name or tool name')
    .description('run a flow with test inputs; the run is stored (see `runs`)')
    .option('--input <name=value>', 'an input (repeatable); typed by the parameter', collect, [])
    .option('--inputs <file.json>', 'a JSON object of inputs')
    .option('--timeout <seconds>', 'limit for the whole run')
    .option('--json', 'print the whole run record (as `runs show --json`)')
    .option('-q, --quiet', 'no progress lines on stderr')
    .option('--from <node>', 'run only this node and what depends on it, reusing stored upstream outputs')
    .option('--reuse <run>', "with --from: the run whose outputs are reused (default: the flow's latest run)")
    .option('--to <node>', 'run only this node and the nodes it needs, nothing after it; prints its output')
    .option(
      '--conversation <name>',
      "go on this conversation: the flow's per-conversation memory channels hold what its earlier runs wrote",
    )
    .action(async (ref: string, options: RunCommandOptions) => {
      const conversation = conversationOption(options.conversation);
      const { flows, runner, runs } = ctx.services;
      const flow = flows.get(flows.resolve(ref).id);
      const inputs = await readRunInputs(flow, options);
      if (options.reuse !== undefined && options.from === undefined)
        throw usageError('--reuse goes with --from <node>');
      let from: { nodeId: string; runId: string } | undefined;
      if (options.from !== undefined) {
        const runId = options.reuse ?? runs.list({ flowId: flow.id, limit: 1 })[0]?.id;
        if (!runId) {
          throw new FlowbenchError('RUN_NOT_FOUND', `flow "${flow.name}" has no run to reuse yet: run it whole first`);
        }
        from = { nodeId: options.from, runId };
      }
      let timeoutMs: number | undefined;
      if (options.timeout !== undefined) {
        const seconds = Number(options.timeout);
        timeoutMs = Math.round(seconds * 1000);
        // A timer holds at most 2^31 - 1 ms: one longer went off at once, and the run failed RUN_TIMEOUT at its start.
        if (!Number.isFinite(seconds) || timeoutMs < 1 || timeoutMs > MAX_TIMER_MS) {
          throw usageError(
            `--timeout takes a number of seconds from 0.001 to ${MAX_TIMER_MS / 1000} (about 24 days), got "${options.timeout}"`,
          );
        }
      }
      const controller = new AbortController();
      const stops = cancelOnStopSignals(controller, 'run');
      const types = new Map(flow.nodes.map((n) => [n.id, n.type]));
      const showProgress = !options.quiet && !options.json;
      // Loaded before the run starts, so that its first model call is not held up by it.
      await ctx.services.providers.preloadFor(flow);
      let record: RunRecord;
      try {
        record = await runner.run({
          flow,
          inputs,
          trigger: 'cli',
          signal: controller.signal,
          human: lib.cliQuestions(),
          ...(from ? { from } : {}),
          ...(options.to !== undefined ? { to: options.to } : {}),
          usePins: true,
          ...(conversation !== undefined ? { conversation } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          listeners: showProgress
            ? [
                (event) => {
                  const line = progressLine(event, types);
                  if (line) process.stderr.write(`${line}\n`);
                },
              ]
            : [],
        });
      } finally {
        stops.dispose();
      }
      if (options.json) printJson(record);
      else {
        // A run to a node returns nothing (the output node did not run): what that node gave is the answer.
        const text = record.toNodeId ? stepOutputText(record, record.toNodeId) : formatOutput(record.output);
        if (text) printLine(text);
        if (record.status !== 'succeeded') {
          const where = record.error?.nodeId ? ` at node "${record.error.nodeId}"` : '';
          process.stderr.write(
            `run ${record.id} ${record.status}${where}: [${record.error?.code ?? '?'}] ${record.error?.message ?? ''}\n`,
          );
        }
      }
      if (record.status === 'cancelled') process.exitCode = stops.exitCode ?? 130;
      else if (record.status !== 'succeeded') process.exitCode = 1;
    });
}
