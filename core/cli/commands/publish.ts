import type { Command } from 'commander';
import { lib } from '../lib';
import { printJson, printLine, type CliContext } from '../context';

interface JsonOption {
  json?: boolean;
}

export function registerPublishCommands(program: Command, ctx: CliContext): void {
  program
    .command('publish')
    .argument('<flow>', 'id, name or tool name')
    .description('validate the draft and publish it as the next version (what MCP clients get)')
    .option('--note <text>', 'what changed', '')
    .option(
      '--json',
      'print JSON: { flowId, version, note, toolName, nodeCount, createdAt, warnings: [{ message, nodeId? }] }',
    )
    .action(async (ref: string, options: JsonOption & { note: string }) => {
      const { flows, versions, tests } = ctx.services;
      const id = flows.resolve(ref).id;
      const flow = flows.get(id);
      // What a client would suffer from: said, as the editor asks, but never blocking.
      const warnings = lib.publishWarnings(flow, lib.nodeRegistry);
      // By content, as the editor's Publish (which is then "Published" and disabled): a version the same as the last.
      const { publishedVersion, hasUnpublishedChanges } = ctx.services.flowService.summary(id);
      if (publishedVersion !== undefined && !hasUnpublishedChanges)
        warnings.push({ message: `the draft is what version ${publishedVersion} is: the new version changes nothing` });
      // A flow set to publish only when its test cases pass runs them first (TESTS_FAILED names the failing ones).
      const gate = await tests.gatePublish(flow);
      if (gate && !options.json) printLine(`test cases: ${gate.passed} passed`);
      const published = versions.publish(id, options.note);
      if (options.json) return printJson({ ...published, warnings });
      for (const warning of warnings) process.stderr.write(`warning: ${warning.message}\n`);
      printLine(`published ${published.toolName} version ${published.version}`);
    });

  program
    .command('versions')
    .argument('<flow>', 'id, name or tool name')
    .description('published versions, newest first')
    .option('--json', 'print JSON: { versions: [{ flowId, version, note, toolName, nodeCount, createdAt }] }')
    .action((ref: string, options: JsonOption) => {
      const { flows, versions } = ctx.services;
      const list = versions.list(flows.resolve(ref).id);
      if (options.json) return printJson({ versions: list });
      if (list.length === 0) return printLine('not published yet: `flowbench publish <flow>`');
      for (const v of list) printLine(`v${v.version}  ${v.createdAt}  ${v.toolName}  ${v.nodeCount} nodes  ${v.note}`);
    });

  for (const [name, isEnabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    program
      .command(name)
      .argument('<flow>', 'id, name or tool name')
      .description(
        isEnabled
          ? 'offer the flow as an MCP tool (its latest published version)'
          : 'stop offering the flow as an MCP tool',
      )
      .option('--json', 'print JSON: { flowId, enabled }')
      .action((ref: string, options: JsonOption) => {
        const { flows } = ctx.services;
        const flow = flows.resolve(ref);
        flows.setEnabled(flow.id, isEnabled);
        if (options.json) return printJson({ flowId: flow.id, enabled: isEnabled });
        printLine(`${flow.toolName} ${isEnabled ? 'enabled' : 'disabled'}`);
      });
  }
}
