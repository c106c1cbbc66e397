import { isExpression } from './n8n-expressions';
import { asString, isRecord } from './shared';
import { rows, type ConvertContext, type NodeKind } from './n8n-model';
import { ownEntry } from '../model/is-record';

/**
 * n8n's If and Filter nodes as a condition node: each rule compares a value
 * (a template) with a fixed operand. The If's outputs are its true and false
 * ports; the Filter's kept items go on from true, the others nowhere. Both
 * hand their item on unchanged, so `$json` after them reads their input's.
 */

type Rule = { value: string; path: string; operator: string; operand?: unknown };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** n8n's operation → Flowbench's operator, and the operand it compares with. */
function operatorFor(
  operation: string,
  operand: unknown,
): { operator: string; operand?: unknown; near?: string } | undefined {
  const simple: Record<string, string> = {
    equals: 'equals',
    equal: 'equals',
    notEquals: 'not_equals',
    notEqual: 'not_equals',
    contains: 'contains',
    notContains: 'not_contains',
    gt: 'greater_than',
    larger: 'greater_than',
    lt: 'less_than',
    smaller: 'less_than',
    gte: 'greater_or_equal',
    largerEqual: 'greater_or_equal',
    lte: 'less_or_equal',
    smallerEqual: 'less_or_equal',
    empty: 'is_empty',
    isEmpty: 'is_empty',
    notEmpty: 'is_not_empty',
    isNotEmpty: 'is_not_empty',
    regex: 'matches',
  };
  const known = ownEntry(simple, operation);
  if (known) return { operator: known, ...(known.startsWith('is_') ? {} : { operand }) };
  if (operation === 'true' || operation === 'false') return { operator: 'equals', operand: operation === 'true' };
  if (operation === 'startsWith') return { operator: 'matches', operand: `^${escapeRegExp(String(operand))}` };
  if (operation === 'endsWith') return { operator: 'matches', operand: `${escapeRegExp(String(operand))}$` };
  if (operation === 'exists') return { operator: 'is_not_empty', near: 'an empty value counts as missing' };
  if (operation === 'notExists') return { operator: 'is_empty', near: 'an empty value counts as missing' };
  return undefined;
}

/** A fixed operand of the type n8n compares as. */
function operandOf(value: unknown, type: string): unknown {
  if (type === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value ?? '';
}

function ruleFrom(
  ctx: ConvertContext,
  left: unknown,
  operation: string,
  right: unknown,
  type: string,
  field: string,
): Rule | undefined {
  if (
    isExpression(right) &&
    !['empty', 'notEmpty', 'isEmpty', 'isNotEmpty', 'exists', 'notExists', 'true', 'false'].includes(operation)
  ) {
    ctx.problem(
      `its rule compares with the expression ${asString(right)}; a Flowbench condition compares with a fixed value: set it in the inspector`,
      { field },
    );
  }
  const mapped = operatorFor(operation, operandOf(isExpression(right) ? '' : right, type));
  if (!mapped) {
    ctx.problem(`its ${type} rule "${operation}" has no Flowbench operator: set the rule in the inspector`, { field });
    return undefined;
  }
  if (mapped.near)
    ctx.problem(`its rule "${operation}" is "${mapped.operator}" here: ${mapped.near}`, { field, severity: 'warning' });
  return {
    value: ctx.template(left, `${field}.leftValue`),
    path: '$',
    operator: mapped.operator,
    ...('operand' in mapped ? { operand: mapped.operand } : {}),
  };
}

/** Version 2 and later: `conditions: { options, conditions: [ … ], combinator }` (also each rule of a Switch, at `field`). */
function rulesV2(
  ctx: ConvertContext,
  conditions: unknown = ctx.node.parameters.conditions,
  field = 'conditions',
): { rules: Rule[]; match: string } {
  const options = isRecord(conditions) && isRecord(conditions.options) ? conditions.options : {};
  if (
    options.caseSensitive === false ||
    (isRecord(ctx.node.parameters.options) && ctx.node.parameters.options.ignoreCase === true)
  )
    ctx.problem('it ignores case; a Flowbench condition compares text as it is', {
      field: `${field}.options`,
      severity: 'warning',
    });
  const rules = rows(conditions, 'conditions').flatMap((c, i) => {
    const operator = isRecord(c.operator) ? c.operator : {};
    const rule = ruleFrom(
      ctx,
      c.leftValue,
      asString(operator.operation, 'equals'),
      c.rightValue,
      asString(operator.type, 'string'),
      `${field}.conditions[${i}]`,
    );
    return rule ? [rule] : [];
  });
  return { rules, match: isRecord(conditions) && conditions.combinator === 'or' ? 'any' : 'all' };
}

/** Version 1: `conditions: { string: [ { value1, operation, value2 } ], number: […], boolean: […] }`. */
function rulesV1(ctx: ConvertContext): { rules: Rule[]; match: string } {
  const conditions = isRecord(ctx.node.parameters.conditions) ? ctx.node.parameters.conditions : {};
  const rules = Object.entries(conditions).flatMap(([type, list]) =>
    (Array.isArray(list) ? list.filter(isRecord) : []).flatMap((c, i) => {
      const rule = ruleFrom(ctx, c.value1, asString(c.operation, 'equal'), c.value2, type, `conditions.${type}[${i}]`);
      return rule ? [rule] : [];
    }),
  );
  return { rules, match: ctx.node.parameters.combineOperation === 'any' ? 'any' : 'all' };
}

const condition = (ports: string[]): NodeKind => ({
  data: (_node, _id, input) => input,
  convert: (ctx) => {
    const { rules, match } = ctx.node.typeVersion >= 2 ? rulesV2(ctx) : rulesV1(ctx);
    if (rules.length === 0) ctx.problem('it has no rule Flowbench can carry over: add one in the inspector');
    return {
      type: 'condition',
      config: { match, rules: rules.length > 0 ? rules : [{ value: '', path: '$', operator: 'is_not_empty' }] },
      ports,
      read: ['conditions', 'combineOperation', 'options', 'looseTypeValidation'],
    };
  },
});

/**
 * A Switch (version 3) as a chain of conditions, one a rule: the first rule
 * that holds takes its output, as n8n's Switch does unless told to send to
 * every matching one; the fallback output is the last rule's false.
 */
const switchNode: NodeKind = {
  data: (_node, _id, input) => input,
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const options = isRecord(p.options) ? p.options : {};
    const rulesRead = ['mode', 'rules', 'options'];
    const values = rows(p.rules, 'values');
    if (ctx.node.typeVersion < 3 || asString(p.mode, 'rules') !== 'rules' || values.length === 0) {
      ctx.problem(
        `it is a Switch ${ctx.node.typeVersion < 3 ? `of version ${ctx.node.typeVersion}` : 'that routes by an expression'}, which Flowbench does not carry over: make it conditions, one a branch`,
      );
      return {
        type: 'condition',
        config: { match: 'all', rules: [{ value: '', path: '$', operator: 'is_not_empty' }] },
        ports: [],
        read: rulesRead,
      };
    }
    if (options.allMatchingOutputs === true)
      ctx.problem('it sends to every matching output; here the first rule that holds takes its branch', {
        field: 'options.allMatchingOutputs',
      });
    const fallback = options.fallbackOutput;
    if (fallback !== undefined && fallback !== 'none' && fallback !== 'extra')
      ctx.problem(
        `its fallback to output ${Number(fallback) + 1} is not carried over: connect the last rule's false port there`,
        {
          field: 'options.fallbackOutput',
        },
      );
    const conditions = values.map((rule, i) => {
      const { rules, match } = rulesV2(ctx, rule.conditions, `rules.values[${i}].conditions`);
      if (rules.length === 0)
        ctx.problem(`its rule ${i + 1} has no condition Flowbench can carry over`, { field: `rules.values[${i}]` });
      return { match, rules: rules.length > 0 ? rules : [{ value: '', path: '$', operator: 'is_not_empty' }] };
    });
    const suffix = (i: number) => `rule_${i + 1}`;
    const from = (i: number) => (i === 0 ? undefined : suffix(i));
    const label = (i: number) => {
      const key = asString(values[i]?.outputKey);
      return values[i]?.renameOutput === true && key ? key : `rule ${i + 1}`;
    };
    return {
      type: 'condition',
      config: conditions[0]!,
      followers: conditions.slice(1).map((config, k) => ({
        suffix: suffix(k + 1),
        label: `${ctx.node.name}: ${label(k + 1)}`,
        type: 'condition',
        config,
      })),
      inner: conditions.slice(1).map((_c, k) => ({ from: from(k), port: 'false', to: suffix(k + 1) })),
      outputs: [
        ...conditions.map((_c, i) => ({ from: from(i), port: 'true' })),
        ...(fallback === 'extra' ? [{ from: from(conditions.length - 1), port: 'false' }] : []),
      ],
      read: rulesRead,
    };
  },
};

export const CONDITIONS: Record<string, NodeKind> = {
  'n8n-nodes-base.switch': switchNode,
  'n8n-nodes-base.if': condition(['true', 'false']),
  'n8n-nodes-base.filter': condition(['true']),
};
