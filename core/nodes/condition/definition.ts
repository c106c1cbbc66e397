import { z } from 'zod';
import { stringifyValue } from '../../model/template';
import { defineNode } from '../define-node';
import { loadPathSelect, loadPatternTest, pathProblem, patternProblem } from '../../model/matching';
import { applyOperator } from './evaluate';

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'greater_than',
  'less_than',
  'greater_or_equal',
  'less_or_equal',
  'is_empty',
  'is_not_empty',
  'matches',
] as const;

/** Each operator in words, in the inspector and on the card. */
const OPERATOR_WORDS: Record<(typeof CONDITION_OPERATORS)[number], string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  contains: 'contains',
  not_contains: 'does not contain',
  greater_than: 'is greater than',
  less_than: 'is less than',
  greater_or_equal: 'is at least',
  less_or_equal: 'is at most',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
  matches: 'matches the pattern',
};

const RuleSchema = z.lazy(() =>
  z.object({
    /** A template whose rendered value is tested, e.g. `{{nodes.classify.output}}`. */
    value: z.string().max(10_000),
    /** JSONPath into the value when it is JSON; `$` tests the value itself. */
    path: z.string().max(1000).default('$'),
    operator: z.enum(CONDITION_OPERATORS),
    operand: z.json().optional(),
  }),
);

const ConditionConfigSchema = z.lazy(() =>
  z.object({
    /** `all`: every rule must hold; `any`: one is enough. */
    match: z.enum(['all', 'any']).default('all'),
    rules: z.array(RuleSchema).min(1, 'a condition needs at least one rule'),
  }),
);

/** Routes the run down its `true` or `false` port. */
/** A condition continues on the port named after its result. */
const portsFor = (output: unknown): readonly string[] => [output === true ? 'true' : 'false'];

export const conditionNode = defineNode({
  type: 'condition',
  version: 1,
  label: 'Condition',
  category: 'logic',
  icon: 'branch',
  description: 'Tests values with JSONPath and operators; continues on the true or false port.',
  inputs: [{ id: 'in', label: 'in', kind: 'data' }],
  outputs: [
    { id: 'true', label: 'true', kind: 'branch' },
    { id: 'false', label: 'false', kind: 'branch' },
  ],
  configSchema: ConditionConfigSchema,
  defaults: () => ({
    match: 'all' as const,
    rules: [{ value: '', path: '$', operator: 'equals' as const, operand: '' }],
  }),
  editor: [
    { key: 'match', label: 'Match', kind: 'select', options: ['all', 'any'] },
    {
      key: 'rules',
      label: 'Rules',
      kind: 'list',
      itemFields: [
        { key: 'value', label: 'Value', kind: 'template' },
        { key: 'path', label: 'JSONPath', kind: 'text', suggest: 'paths' },
        {
          key: 'operator',
          label: 'Operator',
          kind: 'select',
          options: CONDITION_OPERATORS,
          // Said as n8n says them; the stored names are the seed's.
          optionLabels: OPERATOR_WORDS,
        },
        {
          key: 'operand',
          label: 'Compare with',
          kind: 'value',
          // is_empty and is_not_empty compare with nothing.
          shownWhen: {
            key: 'operator',
            is: CONDITION_OPERATORS.filter((o) => o !== 'is_empty' && o !== 'is_not_empty'),
          },
          help: 'text, or JSON: 42, true, ["a", "b"] ("42" in quotes is the text)',
        },
      ],
    },
  ],
  templates: (config) => config.rules.map((rule, i) => ({ field: `rules.${i}.value`, text: rule.value })),
  summary: (config) =>
    config.rules
      .map((r) => {
        // Emptiness compares with nothing, whatever operand an import left there.
        const comparesWith = r.operand !== undefined && r.operator !== 'is_empty' && r.operator !== 'is_not_empty';
        return `${r.path} ${OPERATOR_WORDS[r.operator]}${comparesWith ? ` ${JSON.stringify(r.operand)}` : ''}`;
      })
      .join(config.match === 'all' ? ' and ' : ' or '),
  fillEmptyText: (config, reference) => {
    const empty = config.rules.findIndex((rule) => rule.value.trim() === '');
    if (empty === -1) return undefined;
    return { ...config, rules: config.rules.map((rule, i) => (i === empty ? { ...rule, value: reference } : rule)) };
  },
  check: (config) =>
    config.rules.flatMap((rule, i) => {
      const problem = (field: 'path' | 'operand', reason: string | undefined) =>
        reason === undefined
          ? []
          : [
              {
                code: 'NODE_SETUP' as const,
                severity: 'error' as const,
                message: `rule ${i + 1}: ${reason}`,
                field: `config.rules.${i}.${field}`,
              },
            ];
      const pattern = rule.operator === 'matches' ? patternProblem(stringifyValue(rule.operand)) : undefined;
      return [...problem('path', pathProblem(rule.path)), ...problem('operand', pattern)];
    }),
  portsFor,
  execute: async (ctx, config) => {
    const test = config.rules.some((r) => r.operator === 'matches') ? await loadPatternTest() : undefined;
    const selectPath = await loadPathSelect();
    const results = config.rules.map((rule) => {
      const value = selectPath(ctx.resolve(rule.value), rule.path);
      return {
        path: rule.path,
        operator: rule.operator,
        operand: rule.operand,
        value,
        result: applyOperator(rule.operator, value, rule.operand, test),
      };
    });
    ctx.report({ input: results });
    const passed = config.match === 'all' ? results.every((r) => r.result) : results.some((r) => r.result);
    return { kind: 'output', output: passed, ports: portsFor(passed) };
  },
});
