import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { toFlowbenchError } from '../model/errors';
import { checkAnswer, noHumanInput, type AskField, type HumanInputPort } from '../model/human-input';

/** How each field type is typed at the prompt, and read back. */
function readField(field: AskField, text: string): { value: unknown } | { problem: string } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(trimmed)) return { value: true };
      if (/^(n|no|false)$/i.test(trimmed)) return { value: false };
      return { problem: 'answer yes or no' };
    case 'number':
    case 'integer': {
      const value = Number(trimmed);
      if (!Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) {
        return { problem: field.type === 'integer' ? 'expected a whole number' : 'expected a number' };
      }
      return { value };
    }
    case 'enum':
      return (field.options ?? []).includes(trimmed)
        ? { value: trimmed }
        : { problem: `expected one of ${(field.options ?? []).join(', ')}` };
    case 'string':
      return { value: text };
  }
}

function prompt(field: AskField): string {
  const hint =
    field.type === 'boolean' ? ' (yes/no)' : field.type === 'enum' ? ` [${(field.options ?? []).join('/')}]` : '';
  return `  ${field.title || field.name}${hint}${field.required ? '' : ' (optional, Enter to skip)'}: `;
}

/**
 * `flowbench run` asks an ask node's question in the terminal, field by field
 * (a field typed wrong is asked again); Ctrl-D declines. Prompts go to
 * stderr, so stdout stays the flow's output.
 */
export function terminalQuestions(input: Readable, output: Writable): HumanInputPort {
  return {
    ask: async (request, signal) => {
      const lines = createInterface({ input, output, terminal: false });
      // A question pending when the input ends never settles on its own: the end answers it.
      const ended = new Promise<undefined>((resolve) => lines.once('close', () => resolve(undefined)));
      try {
        output.write(`\n${request.nodeId} asks: ${request.message}\n`);
        const content: Record<string, unknown> = {};
        for (const field of request.fields) {
          for (;;) {
            const text = await Promise.race([
              ended,
              lines.question(prompt(field), { signal: signal as AbortSignal }).catch((error: unknown) => {
                throw toFlowbenchError(signal.aborted ? signal.reason : error);
              }),
            ]);
            if (text === undefined) return { action: 'decline' };
            const read = readField(field, text);
            if (read === undefined && field.required) {
              output.write('  an answer is required\n');
              continue;
            }
            if (read && 'problem' in read) {
              output.write(`  ${read.problem}\n`);
              continue;
            }
            if (read) content[field.name] = read.value;
            break;
          }
        }
        return { action: 'accept', content: checkAnswer(request, content) };
      } finally {
        lines.close();
      }
    },
  };
}

/** The terminal when there is one; otherwise an ask node fails naming itself. */
export function cliQuestions(): HumanInputPort {
  return process.stdin.isTTY
    ? terminalQuestions(process.stdin, process.stderr)
    : noHumanInput('`flowbench run` has no terminal to ask in (its standard input is not a terminal)');
}
