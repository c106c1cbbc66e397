import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalQuestions } from './terminal-questions';

const request = {
  runId: 'r1',
  nodeId: 'confirm',
  message: 'Ship 2.1?',
  fields: [
    { name: 'ship', type: 'boolean' as const, required: true },
    { name: 'channel', type: 'enum' as const, options: ['stable', 'beta'], required: true },
    { name: 'copies', type: 'integer' as const, required: false },
  ],
};

/** Types `lines` into the prompt one by one, as a person would after each question. */
function typing(lines: string[], end = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (shown.trimEnd().endsWith(':')) {
      const next = lines.shift();
      if (next !== undefined) input.write(`${next}\n`);
      else if (end) input.end();
    }
  });
  return { input, output, shown: () => shown };
}

describe('flowbench run asks in the terminal', () => {
  it('asks field by field, asks again after a wrong answer, and skips an optional one', async () => {
    const terminal = typing(['maybe', 'yes', 'nightly', 'beta', '']);
    const answer = await terminalQuestions(terminal.input, terminal.output).ask(request, new AbortController().signal);
    expect(answer).toEqual({ action: 'accept', content: { ship: true, channel: 'beta' } });
    expect(terminal.shown()).toContain('confirm asks: Ship 2.1?');
    expect(terminal.shown()).toContain('answer yes or no');
    expect(terminal.shown()).toContain('expected one of stable, beta');
  });

  it('declines when the input ends (Ctrl-D)', async () => {
    const terminal = typing(['yes'], true);
    const answer = await terminalQuestions(terminal.input, terminal.output).ask(request, new AbortController().signal);
    expect(answer).toEqual({ action: 'decline' });
  });
});
