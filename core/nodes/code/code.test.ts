import { describe, expect, it } from 'vitest';
import { quickJsSandbox } from '../../engine/run-code';
import { runFlow } from '../../engine/run-flow';
import { FlowSchema, type FlowInput } from '../../model/flow';
import type { LlmPort } from '../../model/llm';
import type { RunEvent } from '../../model/run';
import { validateFlow } from '../../model/validate';
import { nodeRegistry } from '../registry';
import { buildFlow, input, output, template } from '../../../tests/helpers/flow-builder';

/** input (text, tags) → shout (a template) → shape (a code node) → result. */
const codeFlow = (code: string, extra: Record<string, unknown> = {}): FlowInput =>
  buildFlow({
    parameters: [
      { name: 'text', type: 'string' },
      { name: 'tags', type: 'array', required: false },
    ],
    nodes: [
      input(),
      template('shout', '{{inputs.text}}!'),
      {
        id: 'shape',
        type: 'code',
        config: {
          values: [
            { name: 'said', value: '{{nodes.shout.output}}' },
            { name: 'tags', value: '{{inputs.tags}}' },
          ],
          code,
        },
        ...extra,
      },
      output('{{nodes.shape.output}}'),
    ],
    edges: ['input>shout', 'shout>shape', 'shape>result'],
  });

async function run(flow: FlowInput, inputs: Record<string, unknown>, timeLimitMs?: number) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    flow: FlowSchema.parse(flow),
    inputs,
    llm: {} as LlmPort,
    ...(timeLimitMs ? { code: quickJsSandbox({ timeLimitMs }) } : {}),
    listeners: [(e) => events.push(e)],
  });
  const step = events.find(
    (e): e is Extract<RunEvent, { type: 'node.finished' | 'node.failed' }> =>
      (e.type === 'node.finished' || e.type === 'node.failed') && e.nodeId === 'shape',
  );
  return { result, step };
}

describe('a code node', () => {
  it('runs its JavaScript on the values it names, a lone reference keeping its JSON type, and gives what it returns', async () => {
    const { result, step } = await run(
      codeFlow(
        'const tags = values.tags.map((t) => t.toUpperCase());\nreturn { said: values.said, tags, count: tags.length };',
      ),
      { text: 'hello', tags: ['a', 'b'] },
    );
    expect(result.status).toBe('succeeded');
    expect(step).toMatchObject({
      type: 'node.finished',
      input: { values: { said: 'hello!', tags: ['a', 'b'] } },
      output: { said: 'hello!', tags: ['A', 'B'], count: 2 },
    });
  });

  it('runs in a sandbox: nothing of Node, the network or modules is there, and undefined is null', async () => {
    const { step } = await run(
      codeFlow(
        'return [typeof require, typeof process, typeof fetch, typeof globalThis.XMLHttpRequest, typeof import.meta, values.nothing];',
      ),
      { text: 'x' },
    );
    // import.meta is a syntax error outside a module: the code says so, naming its line.
    expect(step).toMatchObject({ type: 'node.failed', error: { code: 'CODE_ERROR' } });
    const sandboxed = await run(
      codeFlow(
        'return [typeof require, typeof process, typeof fetch, typeof globalThis.XMLHttpRequest, values.nothing];',
      ),
      { text: 'x' },
    );
    expect(sandboxed.step?.type === 'node.finished' && sandboxed.step.output).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      null,
    ]);
  });

  it('says a throw or a syntax error with its line, and stops a loop that never ends', async () => {
    const thrown = await run(codeFlow('const a = 1;\nthrow new Error(`no ${values.said}`);'), { text: 'way' });
    expect(thrown.result.error).toMatchObject({
      code: 'CODE_ERROR',
      message: 'node "shape" (line 2): Error: no way!',
      nodeId: 'shape',
    });
    const broken = await run(codeFlow('return {'), { text: 'x' });
    expect(broken.result.error?.code).toBe('CODE_ERROR');
    expect(broken.result.error?.message).toContain('SyntaxError');
    const started = Date.now();
    const endless = await run(codeFlow('while (true) {}'), { text: 'x' }, 300);
    expect(endless.result.error).toMatchObject({
      code: 'CODE_TIMEOUT',
      message: 'node "shape": the code ran longer than 0.3 s and was stopped',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('has a console as browsers and Node do: what it logs is kept in the step, a throw’s too, bounded', async () => {
    const logged = await run(
      codeFlow(
        'console.log("got", values.said, values.tags);\nconsole.warn({ n: values.tags.length });\nconsole.error(undefined);\nreturn 1;',
      ),
      { text: 'hi', tags: ['a'] },
    );
    expect(logged.step).toMatchObject({
      type: 'node.finished',
      input: { values: { said: 'hi!' }, console: ['got hi! ["a"]', 'warn: {"n":1}', 'error: undefined'] },
      output: 1,
    });
    // Logged before a throw: what the person needs to see why.
    const thrown = await run(codeFlow('console.log("tags are", values.tags);\nreturn values.tags.length;'), {
      text: 'x',
    });
    expect(thrown.step).toMatchObject({
      type: 'node.failed',
      error: { code: 'CODE_ERROR', message: expect.stringContaining('(line 2)') },
      input: { console: ['tags are null'] },
    });
    const noisy = await run(codeFlow('for (let i = 0; i < 500; i++) console.log("x".repeat(3000));\nreturn 0;'), {
      text: 'x',
    });
    const lines = noisy.step?.input as { console: string[] };
    expect(lines.console).toHaveLength(101);
    expect(lines.console[0]).toHaveLength(2001);
    expect(lines.console.at(-1)).toBe('… more lines were logged than the 100 kept');
    // No console call, no console in the step.
    const quiet = await run(codeFlow('return 2;'), { text: 'x' });
    expect(quiet.step?.input).toEqual({ values: { said: 'x!', tags: null } });
  });

  it('runs for each item of a list, and an empty code is a problem before a run', async () => {
    const flow = codeFlow('return values.item * 2;', { forEach: { items: '{{inputs.tags}}' } });
    const node = flow.nodes.find((n) => n.id === 'shape')!;
    node.config = {
      values: [{ name: 'item', value: '{{item}}' }],
      code: 'if (values.item === 2) console.log("two");\nreturn values.item * 2;',
    };
    const { step } = await run(flow, { text: 'x', tags: [1, 2, 3] });
    expect(step?.type === 'node.finished' && step.output).toEqual([2, 4, 6]);
    // What an item logged is in the step, said with its item.
    expect(step?.input).toMatchObject({ items: [1, 2, 3], console: ['item 2: two'] });
    const problems = validateFlow(codeFlow('  '), { catalogue: nodeRegistry }).problems;
    expect(problems.map((p) => `${p.code} ${p.field}: ${p.message}`)).toContain(
      'NODE_SETUP config.code: node "shape" write the code this node runs',
    );
  });
});
