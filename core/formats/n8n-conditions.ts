import { isExpression } from './n8n-expressions';
import { asString, isRecord } from './shared';
import { rows, type ConvertContext, type NodeKind } from './n8n-model';

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
  const known = simple[operation];
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

/** Version 2 and later: `conditions: { options, conditions: [ … ], combinator }`. */
function rulesV2(ctx: ConvertContext): { rules: Rule[]; match: string } {
  const conditions = ctx.node.parameters.conditions;
  const options = isRecord(conditions) && isRecord(conditions.options) ? conditions.options : {};
  if (
    options.caseSensitive === false ||
    (isRecord(ctx.node.parameters.options) && ctx.node.parameters.options.ignoreCase === true)
  )
    ctx.problem('it ignores case; a Flowbench condition compares text as it is', {
      field: 'conditions.options',
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
      `conditions.conditions[${i}]`,
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

export const CONDITIONS: Record<string, NodeKind> = {
  'n8n-nodes-base.if': condition(['true', 'false']),
  'n8n-nodes-base.filter': condition(['true']),
};
