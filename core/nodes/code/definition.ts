import { z } from 'zod';
import { CODE_TIME_LIMIT_MS } from '../../model/code';
import { defineNode, preview } from '../define-node';
import { NamedValueSchema, namedValuesEditor, namelessProblems, unchosen } from '../shared-arguments';
import { callPorts } from '../shared-config';

/**
 * Bounds that a code from another tool fits in: n8n sets no limit of its own,
 * and its Edit Fields (Set) nodes, which become code nodes, were met with 60
 * fields, its Code nodes with 150 KB of data written in the code.
 */
const MAX_VALUES = 200;
const MAX_CODE_CHARS = 1_000_000;

const CodeConfigSchema = z.lazy(() =>
  z.object({
    /** What the code reads as `values.<name>`, each a template (a lone reference keeps its JSON type). */
    values: z.array(NamedValueSchema).max(MAX_VALUES).default([]),
    code: z.string().max(MAX_CODE_CHARS).default('return values;'),
  }),
);

/**
 * Runs JavaScript on the flow's values (Dify's and n8n's Code, Rivet's Code
 * node): the code is the body of a function given `values`; what it returns
 * is the output. It runs in a sandbox (see CodePort) with nothing of the
 * machine in it, so a flow file's code cannot reach anything.
 */
export const codeNode = defineNode({
  type: 'code',
  runsForEach: true,
  version: 1,
  label: 'Code',
  category: 'text',
  icon: 'code',
  description:
    'Runs JavaScript on values you name: read them as values.<name>, return the output (anything JSON); console.log shows in its step. A sandbox: no network, files or modules.',
  ...callPorts('result'),
  configSchema: CodeConfigSchema,
  defaults: () => CodeConfigSchema.parse({}),
  editor: [
    {
      key: 'values',
      ...namedValuesEditor(
        'Values',
        'each read by the code as values.<name>; a lone {{…}} reference keeps its JSON type',
      ),
    },
    {
      key: 'code',
      label: 'Code',
      kind: 'code',
      help: `the body of a function: return what the node gives; console.log lines show in its step; runs at most ${CODE_TIME_LIMIT_MS / 1000} s, with no network, files, modules or await`,
    },
  ],
  templates: (config) => config.values.map((v, i) => ({ field: `values.${i}.value`, text: v.value })),
  summary: (config) => preview(config.code.split('\n').find((line) => line.trim() !== '') ?? ''),
  check: (config) => [
    ...unchosen(config.code, 'NODE_SETUP', 'write the code this node runs', 'config.code'),
    ...namelessProblems(config.values, 'values', 'value'),
  ],
  execute: async (ctx, config) => {
    const values = Object.fromEntries(config.values.map((v) => [v.name.trim(), ctx.resolve(v.value)]));
    ctx.report({ input: { values } });
    // What the code logged is kept with its values in the step, a throw's included: it is how code is debugged.
    const logged: string[] = [];
    try {
      const output = await ctx.code.run({
        nodeId: ctx.nodeId,
        code: config.code,
        values,
        signal: ctx.signal,
        log: (line) => logged.push(line),
      });
      return { kind: 'output', output };
    } finally {
      if (logged.length > 0) ctx.report({ input: { values, console: logged } });
    }
  },
});
