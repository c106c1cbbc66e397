import { isRecord } from './is-record';

/**
 * What a JSON schema says a value looks like, read through the ways schemas
 * written by tools say it: a local `$ref` (`#/$defs/Address`, as pydantic and
 * FastMCP write every model), and `anyOf`/`oneOf`/`allOf` (an `Optional[int]`
 * is `anyOf: [{type: integer}, {type: null}]`). Reading `type` and
 * `properties` alone saw nothing in those schemas.
 */

// Deep enough for any real schema; a cycle of refs stops here instead of looping.
const MAX_HOPS = 8;

/** The schema `ref` points to inside `root` (`#/$defs/Address`); undefined for other refs. */
function pointedTo(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return undefined;
  const keys = ref
    .slice(1)
    .split('/')
    .filter((key) => key !== '')
    .map((key) => decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~'));
  let at: unknown = root;
  for (const key of keys) at = isRecord(at) ? at[key] : undefined;
  return at;
}

/**
 * The schema and every schema it stands for: its `$ref` followed, its
 * `anyOf`/`oneOf`/`allOf` branches, each followed in turn. A value matching
 * the schema matches one or more of these.
 */
export function schemaBranches(schema: unknown, root: unknown = schema, hops = 0): Record<string, unknown>[] {
  if (!isRecord(schema) || hops > MAX_HOPS) return [];
  const own = typeof schema.$ref === 'string' ? schemaBranches(pointedTo(schema.$ref, root), root, hops + 1) : [];
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((key) => {
    const list = schema[key];
    return Array.isArray(list) ? list.flatMap((branch) => schemaBranches(branch, root, hops + 1)) : [];
  });
  return [schema, ...own, ...branches];
}

/** The types a value of `schema` may have (`integer`, `null`, …); empty when it says none. */
export function schemaTypes(schema: unknown, root: unknown = schema): string[] {
  const types = schemaBranches(schema, root).flatMap((branch) =>
    Array.isArray(branch.type)
      ? branch.type.filter((t) => typeof t === 'string')
      : typeof branch.type === 'string'
        ? [branch.type]
        : [],
  );
  return [...new Set(types)];
}

/** The named properties an object of `schema` may have, from every branch, first one of a name kept. */
export function schemaProperties(schema: unknown, root: unknown = schema): [string, unknown][] {
  const found = new Map<string, unknown>();
  for (const branch of schemaBranches(schema, root))
    if (isRecord(branch.properties))
      for (const [key, property] of Object.entries(branch.properties)) if (!found.has(key)) found.set(key, property);
  return [...found];
}

/** The schema of an array's items, from the first branch that gives one. */
export function schemaItems(schema: unknown, root: unknown = schema): unknown {
  return schemaBranches(schema, root).find((branch) => isRecord(branch.items))?.items;
}

/** The first of a string property (`description`) any branch gives. */
export function schemaText(schema: unknown, key: string, root: unknown = schema): string | undefined {
  const found = schemaBranches(schema, root).find((branch) => typeof branch[key] === 'string')?.[key];
  return typeof found === 'string' ? found : undefined;
}

/** The allowed values (`enum`, or `const` in each branch), when the schema lists them. */
export function schemaChoices(schema: unknown, root: unknown = schema): unknown[] | undefined {
  const branches = schemaBranches(schema, root);
  const listed = branches.find((branch) => Array.isArray(branch.enum))?.enum;
  if (Array.isArray(listed)) return listed as unknown[];
  const consts = branches.filter((branch) => 'const' in branch).map((branch) => branch.const);
  return consts.length > 0 ? consts : undefined;
}
