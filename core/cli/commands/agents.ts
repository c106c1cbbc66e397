import type { Command } from 'commander';
import { TOOL_ERROR_POLICIES, type AgentSettings, type AgentSummary } from '../../model/agents';
import { toolLabel } from '../../model/tools';
import { lib } from '../lib';
import { columns } from '../columns';
import { printJson, printLine, type CliContext } from '../context';
import { usageError } from '../usage';

interface SettingsOptions {
  provider?: string;
  model?: string;
  system?: string;
  tool: string[];
  maxSteps?: string;
  toolErrors?: string;
  description?: string;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `server/tool`, or a bare tool name (found on any connected server). */
function toolRef(text: string): { server: string; tool: string } {
  const at = text.indexOf('/');
  return at === -1 ? { server: '', tool: text } : { server: text.slice(0, at), tool: text.slice(at + 1) };
}

/** The draft with the options given applied; checked like the API checks it. */
function settingsFrom(options: SettingsOptions, base: Partial<AgentSettings> = {}): AgentSettings {
  if (options.toolErrors && !(TOOL_ERROR_POLICIES as readonly string[]).includes(options.toolErrors)) {
    throw usageError(`--tool-errors must be one of ${TOOL_ERROR_POLICIES.join(', ')}`);
  }
  return lib.parseOrRefuse(
    lib.AgentSettingsSchema,
    {
      ...base,
      ...(options.provider !== undefined ? { provider: options.provider } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.system !== undefined ? { system: options.system } : {}),
      ...(options.tool.length > 0 ? { tools: options.tool.map(toolRef) } : {}),
      ...(options.maxSteps !== undefined ? { maxSteps: Number(options.maxSteps) } : {}),
      ...(options.toolErrors !== undefined ? { toolErrors: options.toolErrors } : {}),
    },
    'agent',
  );
}

function settingsOptions(command: Command): Command {
  return command
    .option('--provider <name>', 'the provider (default: the default provider)')
    .option('--model <model>', "the model (default: the provider's default)")
    .option('--system <text>', 'the system prompt')
    .option(
      '--tool <server/tool>',
      'a tool it may call; a bare name is looked up on every server (repeatable)',
      collect,
      [],
    )
    .option('--max-steps <n>', 'model turns before it must answer (1–100, default 8)')
    .option('--tool-errors <policy>', `${TOOL_ERROR_POLICIES.join('|')}: fail the step, or tell the model`)
    .option('--description <text>', 'what the agent is for');
}

function cells(agent: AgentSummary): string[] {
  const version = agent.latestVersion ? `v${agent.latestVersion.version} ${agent.latestVersion.id}` : 'not published';
  const review = agent.status === 'review' ? '  [imported: review]' : '';
  const tools = agent.draft.tools.map(toolLabel).join(', ');
  return [agent.name, version, `${agent.draft.model || 'default model'}${tools ? `  tools: ${tools}` : ''}${review}`];
}

export function registerAgentCommands(program: Command, ctx: CliContext): void {
  const agents = program
    .command('agents')
    .description('the agent library: named, versioned agents that agent nodes and imported flow steps run');

  agents
    .command('list')
    .description('every agent, its newest version and whether it needs review')
    .option('--json', 'print JSON: { agents: [{ id, name, status, draft, latestVersion? }] }')
    .action(async (options: { json?: boolean }) => {
      const list = ctx.services.agents.list();
      if (options.json) return printJson({ agents: list });
      if (list.length === 0) return printLine('no agents yet: `flowbench agents add <name> --tool server/tool …`');
      for (const line of await columns(list.map(cells))) printLine(line);
    });

  settingsOptions(agents.command('add').argument('<name>'))
    .description('create an agent (its draft); --publish also publishes version 1')
    .option('--publish', 'publish the draft as version 1')
    .option('--json', 'print JSON: { agent, version? }')
    .action((name: string, options: SettingsOptions & { publish?: boolean }) => {
      const agent = ctx.services.agents.create({
        name,
        description: options.description ?? '',
        draft: settingsFrom(options),
      });
      const version = options.publish ? ctx.services.agents.publish(agent.id) : undefined;
      if (options.json) return printJson({ agent: ctx.services.agents.get(agent.id), ...(version ? { version } : {}) });
      printLine(
        `created agent ${agent.name}${version ? `, published v1 as ${version.id}` : ' (a draft: `agents publish`)'}`,
      );
    });

  settingsOptions(agents.command('set').argument('<agent>', 'id or name'))
    .description("change an agent's draft (published versions never change)")
    .option('--json', 'print JSON: { agent }')
    .action((ref: string, options: SettingsOptions) => {
      const current = ctx.services.agents.get(ref);
      const agent = ctx.services.agents.update(ref, {
        draft: settingsFrom(options, current.draft),
        ...(options.description !== undefined ? { description: options.description } : {}),
      });
      if (options.json) return printJson({ agent });
      printLine(`saved the draft of ${agent.name}`);
    });

  agents
    .command('show')
    .argument('<agent>', 'id or name')
    .option('--json', 'print JSON: { agent, versions }')
    .action((ref: string, options: { json?: boolean }) => {
      const agent = ctx.services.agents.get(ref);
      const versions = ctx.services.agents.versions(ref);
      if (options.json) return printJson({ agent, versions });
      printLine(cells(agent).join('  '));
      if (agent.draft.system) printLine(`  system: ${agent.draft.system.slice(0, 200)}`);
      for (const v of versions) printLine(`  v${v.version}  ${v.id}  ${v.publishedAt}`);
    });

  agents
    .command('publish')
    .argument('<agent>', 'id or name')
    .description('publish the draft as the next version')
    .option('--json', 'print JSON: the version')
    .action((ref: string, options: { json?: boolean }) => {
      const version = ctx.services.agents.publish(ref);
      if (options.json) return printJson(version);
      printLine(`published ${version.agentName} v${version.version} as ${version.id}`);
    });

  agents
    .command('review')
    .argument('<agent>', 'id or name')
    .description('mark an agent an import created as reviewed: flows using it can then publish')
    .action((ref: string) => {
      const agent = ctx.services.agents.update(ref, { reviewed: true });
      printLine(`${agent.name} is reviewed`);
    });

  agents
    .command('remove')
    .argument('<agent>', 'id or name')
    .description('delete an agent and its versions (flows naming them then fail AGENT_NOT_FOUND)')
    .action((ref: string) => {
      const agent = ctx.services.agents.get(ref);
      ctx.services.agents.remove(agent.id);
      printLine(`removed agent ${agent.name}`);
    });
}
