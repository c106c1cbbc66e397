import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { usageError } from './usage';

/** All of standard input, less the one line end `echo` or a here-string adds. */
async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal without echoing what is typed (the prompt goes to stderr; stdout stays for --json). */
async function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = lines.question(question);
    muted = true;
    return await answer;
  } finally {
    lines.close();
    process.stderr.write('\n');
  }
}

/**
 * A secret's value from where the person put it: the environment variable
 * `fromEnv` names, the terminal (not echoed), or standard input when piped.
 * Never from the command line itself, where shell history and `ps` would keep it.
 */
export async function readSecretValue(name: string, fromEnv: string | undefined): Promise<string> {
  let value: string | undefined;
  let source: string;
  if (fromEnv !== undefined) {
    value = process.env[fromEnv];
    source = `the environment variable ${fromEnv}`;
    if (value === undefined) throw usageError(`${source} is not set`);
  } else if (process.stdin.isTTY) {
    value = await askHidden(`value of the secret ${name} (not shown): `);
    source = 'the terminal';
  } else {
    value = await readPiped();
    source = 'standard input';
  }
  if (value === '') throw usageError(`no value for the secret ${name} came from ${source}`);
  return value;
}
