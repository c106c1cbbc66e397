import type { Command } from 'commander';
import { SECRET_STORE_LABELS, shortSecretNote } from '../../model/secrets';
import { printJson, printLine, type CliContext } from '../context';
import { readSecretValue } from '../read-secret';

/** `flowbench secrets`: the values HTTP request nodes read as `{{secrets.name}}`, listed by name only. */
export function registerSecretCommands(program: Command, ctx: CliContext): void {
  const secrets = program
    .command('secrets')
    .description('secrets HTTP request nodes read as {{secrets.name}}: list, set, remove');

  secrets
    .command('list')
    .description('the secrets kept here, by name, and where each is kept (never a value)')
    .option(
      '--json',
      'print JSON: { secrets: [{ name, store: keychain|safe-storage|plain-text, readBy: [flow] }], wanted: [{ name, readBy }] }',
    )
    .action((options: { json?: boolean }) => {
      const list = ctx.services.flowSecrets.list();
      const wanted = ctx.services.flowSecrets.wanted();
      if (options.json) return printJson({ secrets: list, wanted });
      if (list.length === 0) printLine('no secrets yet: flowbench secrets set <name>');
      for (const secret of list) {
        printLine(`${secret.name}  kept ${SECRET_STORE_LABELS[secret.store]}; ${readByText(secret.readBy)}`);
      }
      // What flows read that is not here: they do not run until it is set.
      for (const secret of wanted) {
        printLine(`${secret.name}  not set here; ${readByText(secret.readBy)}: flowbench secrets set ${secret.name}`);
      }
    });

  secrets
    .command('set')
    .argument('<name>', 'letters, digits, _ and -: flows read it as {{secrets.<name>}}')
    .description(
      'add a secret or replace its value: typed at the prompt (not shown), piped on standard input, or --from-env',
    )
    .option('--from-env <variable>', 'take the value from this environment variable')
    .option('--json', 'print JSON: { name, store }')
    .action(async (name: string, options: { fromEnv?: string; json?: boolean }) => {
      const value = await readSecretValue(name, options.fromEnv);
      const service = ctx.services.flowSecrets;
      service.set(name, value);
      const store = service.list().find((s) => s.name === name)?.store ?? ctx.services.secrets.store;
      const short = shortSecretNote(value);
      const note = short ? `its value is ${short}` : undefined;
      if (options.json) return printJson({ name, store, ...(note ? { note } : {}) });
      printLine(`saved the secret ${name}: kept ${SECRET_STORE_LABELS[store]}; flows read it as {{secrets.${name}}}`);
      if (note) printLine(`note: ${note}`);
    });

  secrets
    .command('remove')
    .argument('<name>', 'a secret set here')
    .description('forget a secret (flows that read it then fail SECRET_MISSING before they start)')
    .option('--json', 'print JSON: { removed, readBy: [flow] }')
    .action((name: string, options: { json?: boolean }) => {
      const service = ctx.services.flowSecrets;
      const readBy = service.list().find((s) => s.name === name)?.readBy ?? [];
      service.remove(name);
      if (options.json) return printJson({ removed: name, readBy });
      printLine(
        readBy.length === 0
          ? `removed the secret ${name}; no flow reads it`
          : `removed the secret ${name}; these flows read it and will not start until it is set again: ${readBy.join(', ')}`,
      );
    });
}

/** Which flows read a secret, as `secrets list` says it. */
const readByText = (flows: readonly string[]): string =>
  flows.length === 0 ? 'read by no flow' : `read by ${flows.join(', ')}`;
