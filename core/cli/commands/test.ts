import type { Command } from 'commander';
import { printJson, printLine, type CliContext } from '../context';
import { cancelOnStopSignals } from '../stop-signals';
import { usageError } from '../usage';

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerTestCommand(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .argument('<flow>', 'id, name or tool name')
    .description("run the flow's test cases and check their expectations; exit 1 when one fails (for CI)")
    .option('--case <id>', 'run only this test case (repeatable)', collect, [])
    .option('--json', 'print JSON: { flowId, passed, failed, results: [{ id, name, status, runId, failures }] }')
    .action(async (ref: string, options: { case: string[]; json?: boolean }) => {
      const { flows, tests } = ctx.services;
      const flow = flows.get(flows.resolve(ref).id);
      const unknown = options.case.filter((id) => !flow.tests.some((t) => t.id === id));
      if (unknown.length > 0) {
        const known = flow.tests.map((t) => t.id).join(', ') || 'none';
        throw usageError(
          `no test case ${unknown.map((id) => `"${id}"`).join(', ')} in "${flow.name}" (test cases: ${known})`,
        );
      }
      await ctx.services.providers.preloadFor(flow);
      const controller = new AbortController();
      const stops = cancelOnStopSignals(controller, 'test');
      let summary;
      try {
        summary = await tests.runAll(flow, {
          signal: controller.signal,
          ...(options.case.length > 0 ? { only: options.case } : {}),
        });
      } finally {
        stops.dispose();
      }
      if (summary.failed > 0) process.exitCode = stops.exitCode ?? 1;
      if (options.json) return printJson(summary);
      if (summary.results.length === 0) {
        printLine(`"${flow.name}" has no test cases yet (add them in the editor's Tests tab)`);
        return;
      }
      for (const result of summary.results) {
        const mark = result.status === 'passed' ? '✓' : result.status === 'failed' ? '✗' : '!';
        printLine(`${mark} ${result.name}  ${result.status}  ${(result.durationMs / 1000).toFixed(2)} s`);
        for (const failure of result.failures) printLine(`    ${failure}`);
      }
      printLine(`${summary.passed} passed, ${summary.failed} failed`);
    });
}
