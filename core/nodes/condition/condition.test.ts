import { describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { conditionNode } from './definition';

describe('condition node', () => {
  it('needs at least one rule, and defaults to one empty equals rule', () => {
    expect(conditionNode.configSchema.safeParse({}).success).toBe(false);
    expect(conditionNode.configSchema.safeParse({ rules: [] }).success).toBe(false);
    expect(conditionNode.configSchema.parse(conditionNode.defaults())).toEqual({
      match: 'all',
      rules: [{ value: '', path: '$', operator: 'equals', operand: '' }],
    });
  });

  it('takes the true port when every rule holds, testing JSON paths into an upstream answer', async () => {
    const ctx = nodeContext({ outputs: { classify: '{"label":"bug","score":0.9}' } });
    const config = conditionNode.configSchema.parse({
      rules: [
        { value: '{{nodes.classify.output}}', path: '$.label', operator: 'equals', operand: 'bug' },
        { value: '{{nodes.classify.output}}', path: '$.score', operator: 'greater_than', operand: 0.5 },
      ],
    });
    const outcome = await conditionNode.execute?.(ctx, config);
    expect(outcome).toEqual({ kind: 'output', output: true, ports: ['true'] });
    expect(ctx.reported[0]?.input).toEqual([
      expect.objectContaining({ path: '$.label', value: 'bug', result: true }),
      expect.objectContaining({ path: '$.score', value: 0.9, result: true }),
    ]);
  });

  it('takes the false port when no rule of an `any` condition holds', async () => {
    const ctx = nodeContext({ inputs: { text: 'hello' } });
    const config = conditionNode.configSchema.parse({
      match: 'any',
      rules: [
        { value: '{{inputs.text}}', operator: 'contains', operand: 'urgent' },
        { value: '{{inputs.text}}', operator: 'is_empty' },
      ],
    });
    expect(await conditionNode.execute?.(ctx, config)).toEqual({ kind: 'output', output: false, ports: ['false'] });
  });
});

describe('condition node safety (security findings 4 and 8)', () => {
  const matches = (pattern: string) =>
    conditionNode.configSchema.parse({
      rules: [{ value: '{{inputs.text}}', operator: 'matches', operand: pattern }],
    });

  it('tests `^(a+)+$` against 32 a and a ! in linear time, without freezing the process', async () => {
    const started = performance.now();
    const outcome = await conditionNode.execute?.(
      nodeContext({ inputs: { text: `${'a'.repeat(32)}!` } }),
      matches('^(a+)+$'),
    );
    expect(outcome).toEqual({ kind: 'output', output: false, ports: ['false'] });
    expect(performance.now() - started).toBeLessThan(1000);
    const long = await conditionNode.execute?.(
      nodeContext({ inputs: { text: 'a'.repeat(100_000) } }),
      matches('^(a+)+$'),
    );
    expect(long).toMatchObject({ output: true });
  });

  it('refuses at validation a pattern with a backreference or lookaround, an invalid one, and a JSONPath filter', () => {
    expect(conditionNode.check?.(matches('(a)\\1'))).toEqual([
      expect.objectContaining({ code: 'NODE_SETUP', field: 'config.rules.0.operand' }),
    ]);
    expect(conditionNode.check?.(matches('(?=x)a'))?.[0]?.message).toContain('lookaround');
    expect(conditionNode.check?.(matches('(unclosed'))?.[0]?.message).toContain('not a valid regular expression');
    expect(conditionNode.check?.(matches('^[a-z]+$'))).toEqual([]);
    const filtered = conditionNode.configSchema.parse({
      rules: [{ value: '{{inputs.text}}', path: '$..items[?(@.price < 10)]', operator: 'is_not_empty' }],
    });
    expect(conditionNode.check?.(filtered)).toEqual([
      expect.objectContaining({ code: 'NODE_SETUP', field: 'config.rules.0.path' }),
    ]);
  });
});

describe('condition card', () => {
  it('says its rules in words, as the inspector does', () => {
    const config = conditionNode.configSchema.parse({
      match: 'any',
      rules: [
        { value: '{{nodes.classify.output}}', path: '$.urgency', operator: 'not_equals', operand: 'high' },
        { value: '{{nodes.score.output}}', operator: 'greater_or_equal', operand: 3 },
        { value: '{{inputs.note}}', operator: 'is_empty', operand: '' },
      ],
    });
    expect(conditionNode.summary(config)).toBe('$.urgency does not equal "high" or $ is at least 3 or $ is empty');
  });
});
