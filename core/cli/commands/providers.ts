import type { Command } from 'commander';
import { PRESETS, PROVIDER_KINDS } from '../../model/provider-config';
import { columns } from '../columns';
import { printJson, printLine, type CliContext } from '../context';
import { numberOption, usageError } from '../usage';

interface SetOptions {
  kind: string;
  baseUrl?: string;
  apiKey?: string;
  defaultModel?: string;
  default?: boolean;
  streaming: boolean;
}

export function registerProviderCommands(program: Command, ctx: CliContext): void {
  const providers = program.command('providers').description('model providers: list, set, default, remove, test');

  providers
    .command('list')
    .description('presets (ollama, lmstudio, openai, anthropic) and your providers')
    .option(
      '--json',
      'print JSON: { providers: [{ name, kind, url, defaultModel?, isDefault, isPreset, apiKey: settings|environment|none, keyStore?: keychain|safe-storage|plain-text, streaming }] }',
    )
    .action(async (options: { json?: boolean }) => {
      const list = ctx.services.providers.list();
      if (options.json) return printJson({ providers: list });
      const rows = list.map((p) => [
        `${p.isDefault ? '*' : ' '} ${p.name}`,
        p.kind,
        `${p.url}${p.defaultModel ? `  model ${p.defaultModel}` : ''}  key: ${p.keyStore ?? p.apiKey}`,
      ]);
      for (const line of await columns(rows)) printLine(line);
    });

  providers
    .command('set')
    .argument('<name>', 'a new name, or a preset to override')
    .description('add or change a provider')
    .requiredOption('--kind <kind>', PROVIDER_KINDS.join('|'))
    .option('--base-url <url>', 'e.g. http://127.0.0.1:11434/v1 (required for openai-compatible)')
    .option('--api-key <key>', "kept in the system's keychain (plain text in the database where there is none)")
    .option('--default-model <model>', 'model for nodes that name none')
    .option('--default', 'make it the default provider')
    .option('--no-streaming', 'one plain request per call (for servers that stream badly)')
    .option('--json', 'print JSON: { name, kind, isDefault }')
    .action((name: string, options: SetOptions & { json?: boolean }) => {
      if (!(PROVIDER_KINDS as readonly string[]).includes(options.kind)) {
        throw usageError(`--kind must be one of ${PROVIDER_KINDS.join(', ')}, got "${options.kind}"`);
      }
      const service = ctx.services.providers;
      const config = service.set(
        {
          name,
          kind: options.kind,
          streaming: options.streaming,
          ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
          ...(options.apiKey ? { apiKey: options.apiKey } : {}),
          ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
        },
        options.default === true,
      );
      const isDefault = service.defaultName() === config.name;
      if (options.json) return printJson({ name: config.name, kind: config.kind, isDefault });
      printLine(`saved provider ${config.name}${isDefault ? ' (default)' : ''}`);
      if (options.apiKey) {
        const plain = ctx.services.secrets.store === 'plain-text';
        process.stderr.write(
          `note: the API key is kept ${ctx.services.secrets.label}${plain ? '; an environment variable (OPENAI_API_KEY, ANTHROPIC_API_KEY) keeps it out of the file' : ''}.\n`,
        );
      }
    });

  providers
    .command('default')
    .argument('<name>', 'a provider you set up, or a preset')
    .description('make a provider the default: the one nodes that name none use')
    .option('--json', 'print JSON: { name }')
    .action((name: string, options: { json?: boolean }) => {
      // An empty name would mean "the default" to the lookup, which is the thing being chosen.
      if (!name.trim()) throw usageError('name the provider to make the default (`flowbench providers list`)');
      ctx.services.providers.setDefault(name);
      if (options.json) return printJson({ name });
      printLine(`default provider: ${name}`);
    });

  providers
    .command('remove')
    .argument('<name>')
    .description('remove a provider you added (a preset you changed goes back to how it ships, without its key)')
    .action((name: string) => {
      ctx.services.providers.remove(name);
      printLine(
        PRESETS.some((p) => p.name === name)
          ? `provider ${name} is back to its preset settings; its stored key is removed`
          : `removed provider ${name}`,
      );
    });

  providers
    .command('test')
    .argument('[name]', 'a provider (default: the default provider)', '')
    .description('check that the provider answers and list its models')
    .option('--json', 'print JSON: { url, models }')
    .action(async (name: string, options: { json?: boolean }) => {
      const result = await ctx.services.providers.test(name);
      if (options.json) return printJson(result);
      printLine(
        `ok: ${result.url} answers with ${result.models.length} model(s)${result.models.length ? `: ${result.models.slice(0, 10).join(', ')}` : ''}`,
      );
    });

  const prices = providers
    .command('price')
    .description('prices per model (dollars per million tokens): `price list`, `price set`, `price remove`');
  prices
    .command('list', { isDefault: true })
    .option('--json', 'print JSON: { prices: [{ provider, model, inputPerMillion, outputPerMillion }] }')
    .action((options: { json?: boolean }) => {
      const table = ctx.services.providers.prices();
      if (options.json) return printJson(table);
      if (table.prices.length === 0)
        return printLine('no prices yet: runs have no cost (`providers price set <model> …`)');
      for (const p of table.prices) {
        printLine(
          `${p.model}${p.provider ? ` at ${p.provider}` : ''}  in $${p.inputPerMillion}/M  out $${p.outputPerMillion}/M`,
        );
      }
    });
  prices
    .command('set')
    .argument('<model>', 'the model name, as the provider calls it')
    .requiredOption('--input <dollars>', 'per million input tokens')
    .requiredOption('--output <dollars>', 'per million output tokens')
    .option('--provider <name>', 'only at this provider (default: at any)', '')
    .option('--json', 'print JSON: { prices: [...] }')
    .action((model: string, options: { input: string; output: string; provider: string; json?: boolean }) => {
      const table = ctx.services.providers.setPrice({
        model,
        provider: options.provider,
        inputPerMillion: numberOption('--input', options.input, { whole: false }),
        outputPerMillion: numberOption('--output', options.output, { whole: false }),
      });
      if (options.json) return printJson(table);
      printLine(`price of ${model} set`);
    });
  prices
    .command('remove')
    .argument('<model>')
    .option('--provider <name>', 'the provider it was set for', '')
    .action((model: string, options: { provider: string }) => {
      ctx.services.providers.removePrice(model, options.provider);
      printLine(`price of ${model} removed`);
    });
}
