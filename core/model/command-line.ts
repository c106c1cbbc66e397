import { parse } from 'shell-quote';

/**
 * A command line as a person pastes it from a README (`npx -y
 * @modelcontextprotocol/server-everything`), split at its spaces as a shell
 * splits words (quotes and backslashes honoured; `$NAME` and `~` kept as
 * written: nothing is expanded, as no shell runs it) into the command and its
 * arguments, which a stdio server is given apart: the whole line as the
 * command names a program that does not exist. Undefined when there is
 * nothing to split (one word), or when the line asks for what only a shell
 * does (a pipe, a redirection, a glob, a comment), which no split can keep.
 */
export function splitCommandLine(line: string): { command: string; args: string[] } | undefined {
  const words = parse(line.trim(), (name) => `$${name}`);
  if (words.length < 2 || !words.every((word): word is string => typeof word === 'string')) return undefined;
  const [command = '', ...args] = words;
  return { command, args };
}
